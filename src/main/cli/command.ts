/** One CLI command: a one-line summary for the usage text and the function that runs it. */
export interface CliCommand {
  summary: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}
