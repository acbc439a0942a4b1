/**
 * Reads (never writes) the user's Codex `config.toml` for what compile needs from it: the
 * names of user-level MCP servers (`[mcp_servers.<name>]`), which a profile not given them must have
 * switched off (mcpFlags.ts `enabled=false`). Parsed with smol-toml, so every TOML spelling
 * (bare, quoted, dotted, inline) yields the same names; and whether it names `project_root_markers`
 * (compile/projectRoot.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { AppFailure } from '../../../shared/result';

/**
 * The MCP server names in `<codexHome>/config.toml`, sorted. A missing file (or folder) means none.
 * Throws AppFailure `codex-config` when the file cannot be read or is not valid TOML (Codex would not
 * start either), naming the file and the line.
 */
export async function readUserMcpServers(codexHome: string): Promise<string[]> {
  const file = join(codexHome, 'config.toml');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new AppFailure({
      code: 'codex-config',
      message: `your Codex config cannot be read (${code ?? String(e)})`,
      where: file,
      fix: 'make it readable by you',
    });
  }
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (e) {
    const line = (e as { line?: number }).line;
    throw new AppFailure({
      code: 'codex-config',
      message: `your Codex config is not valid TOML: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`,
      where: line ? `${file}:${line}` : file,
      fix: 'correct that line (codex itself would refuse to start)',
    });
  }
  const servers = data['mcp_servers'];
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) return [];
  return Object.keys(servers).sort();
}

/**
 * Whether `<codexHome>/config.toml` names `project_root_markers` anywhere (a plain text search, so a
 * comment counts too: when in doubt Codex's own search is left alone, compile/projectRoot.ts). False
 * when the file cannot be read (readUserMcpServers reports that).
 */
export async function readUserSetsRootMarkers(codexHome: string): Promise<boolean> {
  const text = await readFile(join(codexHome, 'config.toml'), 'utf8').catch(() => '');
  return text.includes('project_root_markers');
}
