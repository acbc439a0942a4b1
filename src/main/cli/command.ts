/** One CLI command: a one-line summary for the usage text, its exit codes, and the function that runs it. */
export interface CliCommand {
  summary: string;
  /**
   * What each exit code the command uses means for it (printed by `angelia <command> --help`). The
   * codes are shared by every command (cli/exit.ts): 0 done, 1 a failure during the work, 2 usage or
   * an unknown name, 3 the start was refused (or Angelia is not running).
   */
  exits: Partial<Record<0 | 1 | 2 | 3, string>>;
  /**
   * Lines printed under `options:` by `angelia <command> --help`, one per option or rule, e.g.
   * `--force  replace an existing --out file`. Absent: the summary says it all.
   */
  options?: readonly string[];
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}
