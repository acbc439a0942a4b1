/**
 * The compiled record: `<cwd>/.claude/angelia-compiled.json`, written only by
 * `angelia compile --write`. It says which entries in the profile's files are Angelia's, so the next
 * compile changes or removes only those (a hand-written entry is never touched), and it lists the MCP
 * servers the profile was given (the start check refuses any other that would load).
 */
import { join } from 'node:path';
import { z } from 'zod';

/** The record's path relative to the profile's folder. */
export const RECORD_REL = '.claude/angelia-compiled.json';

/** `<cwd>/.claude/angelia-compiled.json`. Pure. */
export function recordPath(cwd: string): string {
  return join(cwd, RECORD_REL);
}

/**
 * The record: `version` 1; `backend` "codex"; `links`: skill name → absolute target of each link
 * compile made in `.agents/skills`; `mcpServers`: names of the MCP capabilities the profile is given;
 * `deny`: every deny rule compile wanted (settings.json syntax); `additionalDirectories`: the
 * directory grants compile wrote; `blockLines`: the lines of CLAUDE.md's managed block; `compiledAt`:
 * ISO time. Extra keys are ignored when read.
 */
export const recordSchema = z.object({
  version: z.literal(1),
  backend: z.string().min(1),
  links: z.record(z.string(), z.string()),
  mcpServers: z.array(z.string()),
  deny: z.array(z.string()),
  additionalDirectories: z.array(z.string()),
  blockLines: z.array(z.string()),
  compiledAt: z.string(),
});

/** A record as validated. */
export type CompiledRecord = z.output<typeof recordSchema>;

/** The record's text as written: pretty JSON with a final newline, keys always in the order below. */
export function recordText(r: CompiledRecord): string {
  const { version, backend, links, mcpServers, deny, additionalDirectories, blockLines, compiledAt } = r;
  return `${JSON.stringify({ version, backend, links, mcpServers, deny, additionalDirectories, blockLines, compiledAt }, null, 2)}\n`;
}

/** Parses a record's text: the record, or why it cannot be used (never throws). */
export function parseRecord(text: string): { ok: true; record: CompiledRecord } | { ok: false; why: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, why: `is not JSON (${(e as Error).message})` };
  }
  const r = recordSchema.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, why: `is not a compiled record (${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid'})` };
  }
  return { ok: true, record: r.data };
}

/** True when two records say the same thing (everything but `compiledAt`). */
export function sameRecord(a: CompiledRecord, b: CompiledRecord): boolean {
  return recordText({ ...a, compiledAt: '' }) === recordText({ ...b, compiledAt: '' });
}
