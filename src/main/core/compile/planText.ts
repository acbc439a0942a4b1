/**
 * Plans and launches as readable text (for `angelia compile` without `--json`): the file plan of a
 * profile as lines prefixed `+`, `-`, `~`, `CONFLICT`, `note:` (or "up to date"), and the compiled
 * launch: every filesystem entry with its source, network, MCP servers, environment, warnings and the
 * exact codex argv.
 */
import type { CodexLaunch } from './codexProfile';
import type { ProfilePlan } from './plan';

/** Quotes one argv entry for a POSIX shell (single quotes; plain words stay bare). */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * The plan text of `launch` (lines end with `\n`). `mode` is the profile's permission mode; `passedEnv`
 * the variable names its table passes to the agent's commands on purpose (`env`), shown as grants.
 */
export function planText(launch: CodexLaunch, mode: string, passedEnv: readonly string[] = []): string {
  const lines: string[] = [];
  if (!launch.sandboxed) {
    lines.push(`profile ${launch.profile}: NOT SANDBOXED (sandbox = false), mode ${mode} -> approval ${launch.approvalPolicy}`);
    lines.push('  full access: the agent can read and change everything your user can; no deny rule holds');
  } else {
    lines.push(
      `profile ${launch.profile}: sandboxed by Codex, permission profile "angelia" built from grants alone (extends nothing), mode ${mode} -> approval ${launch.approvalPolicy}`,
    );
    lines.push('filesystem (nothing else is readable: HOME, /tmp and every folder not listed hold only the way to a grant):');
    const width = Math.max(0, ...Object.keys(launch.filesystem).map((p) => p.length));
    if (launch.specials[':minimal'] === 'read')
      lines.push(`  ${'read'.padEnd(5)}  ${':minimal'.padEnd(width)}  the system folders commands need (/usr, /etc, /bin, /lib, /dev, /proc)`);
    for (const [path, access] of Object.entries(launch.filesystem)) {
      lines.push(`  ${access.padEnd(5)}  ${path.padEnd(width)}  ${launch.sources[path] ?? ''}`);
    }
    const reads = Object.entries(launch.filesystem).filter(([p, a]) => a === 'read' && /read_dirs|skill capability/.test(launch.sources[p] ?? ''));
    lines.push(`read grants the profile names: ${reads.length > 0 ? reads.map(([p]) => p).join(', ') : 'none'}`);
    for (const m of launch.missingReads) lines.push(`  not given (nothing there now; given at the first start after it appears): ${m.path} (${m.source})`);
    if (launch.readOnly) lines.push('  (read-only: plan mode gives every folder for reading only)');
    lines.push('  (/tmp does not exist for the agent: its temp folder is TMPDIR, its own tmp/ in its package cache)');
    lines.push("network: on through Codex's proxy, every web domain; no Unix socket, no loopback port");
    if (launch.writableRoots.length > 0) lines.push(`writable: ${launch.writableRoots.join(', ')}`);
  }
  lines.push(`MCP servers given: ${launch.mcpServers.length > 0 ? launch.mcpServers.join(', ') : 'none'}`);
  lines.push(
    `variables passed to its commands on purpose (env): ${passedEnv.length > 0 ? passedEnv.join(', ') : 'none'} (besides the plain ones: PATH, HOME, LANG, …)`,
  );
  const env = Object.entries(launch.env);
  if (env.length > 0) {
    lines.push('environment:');
    for (const [k, v] of env) lines.push(`  ${k}=${v}`);
  }
  for (const w of launch.warnings) lines.push(`warning: ${w}`);
  lines.push(`codex ${launch.codexArgs.map(shellQuote).join(' ')}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The file plan of one profile: a header line, then one line per change (`+ …`, `- …`, `~ …`),
 * conflict (`CONFLICT …`) and note (`note: …`), or `up to date` when nothing would change. Lines end
 * with `\n`.
 */
export function planLinesText(plan: ProfilePlan): string {
  const out = [`profile ${plan.profile} (${plan.cwd}):`];
  if (!plan.changed && plan.conflicts.length === 0) out.push('  up to date');
  for (const line of plan.lines) {
    out.push(line.kind === 'note' ? `  note: ${line.text}` : `  ${line.kind} ${line.text}`);
  }
  return `${out.join('\n')}\n`;
}
