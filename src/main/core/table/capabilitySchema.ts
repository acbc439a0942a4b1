/**
 * The `[capabilities.<name>]` section of the table (`kind` = skill, directory, mcp or command): four
 * kinds discriminated on `kind`, every object strict. Secrets are never values here: an MCP server's
 * `env` lists variable NAMES only (values live in `<state>/env`); `secrets` lists files.
 * MCP facts (codex 0.169.0, measured with `codex mcp list --json` and `config/read`): a stdio server is
 * `{command, args, env_vars}` (env_vars = names passed from Codex's own environment), an HTTP server
 * is `{url}`; `env_vars` is for stdio servers only.
 */
import { z } from 'zod';
// An MCP server's `env` takes the names a profile's `env` takes (src/shared/profileFields.ts ENV_NAME).
import { ENV_NAME } from '../../../shared/profileFields';

/**
 * A capability name: one word of letters, digits, `_` and `-` (it becomes a `-c mcp_servers.<name>`
 * key, a link name in `.agents/skills/` and an `mcp__<name>` rule).
 */
export const CAPABILITY_NAME = /^[A-Za-z0-9_-]+$/;

/** The four kinds, in the order check-config lists them. */
export const CAPABILITY_KINDS = ['command', 'skill', 'mcp', 'directory'] as const;
/** One of CAPABILITY_KINDS. */
export type CapabilityKind = (typeof CAPABILITY_KINDS)[number];

const text = z.string().min(1);
const pathList = z.array(text).default([]);

/** `kind = "command"`: a line in CLAUDE.md's managed block ("run X when Y"). */
export const commandCapabilitySchema = z.strictObject({
  kind: z.literal('command'),
  run: text,
  when: text,
});

/** `kind = "skill"`: a folder with SKILL.md, linked into `<cwd>/.agents/skills/<name>`. */
export const skillCapabilitySchema = z.strictObject({
  kind: z.literal('skill'),
  path: text,
  when: text.optional(),
  secrets: pathList,
});

/** `kind = "mcp"`: exactly one of `command` (+ `args`) or `url`; `env` names only with `command`. */
export const mcpCapabilitySchema = z
  .strictObject({
    kind: z.literal('mcp'),
    command: text.optional(),
    args: z.array(z.string()).optional(),
    url: z
      .string()
      .regex(/^https?:\/\/\S+$/, { error: 'must be an http:// or https:// address' })
      .optional(),
    env: z.array(z.string().regex(ENV_NAME, { error: 'must be a variable NAME (letters, digits, "_"; not starting with a digit), never a value' })).default([]),
    when: text.optional(),
    secrets: pathList,
  })
  .superRefine((v, ctx) => {
    if ((v.command === undefined) === (v.url === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'an mcp capability needs exactly one of command or url' });
    }
    if (v.url !== undefined && v.args !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['args'], message: 'args go with command, not with url' });
    }
    if (v.url !== undefined && v.env.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['env'], message: 'Codex passes env variables only to a command server (codex 0.169.0), not to a url server' });
    }
  });

/** `kind = "directory"`: an extra folder; given = writable, denied = unreadable. */
export const directoryCapabilitySchema = z.strictObject({
  kind: z.literal('directory'),
  path: text,
  when: text.optional(),
});

/** One capability, discriminated on `kind`. */
export const capabilitySchema = z.discriminatedUnion('kind', [commandCapabilitySchema, skillCapabilitySchema, mcpCapabilitySchema, directoryCapabilitySchema]);

/** A capability as validated, before paths are resolved. */
export type RawCapability = z.output<typeof capabilitySchema>;

/** Keys of each kind (for "did you mean" on an unknown key). */
export const CAPABILITY_KEYS: Record<CapabilityKind, string[]> = {
  command: Object.keys(commandCapabilitySchema.shape),
  skill: Object.keys(skillCapabilitySchema.shape),
  mcp: Object.keys(mcpCapabilitySchema.shape),
  directory: Object.keys(directoryCapabilitySchema.shape),
};

/** A one-line hint per capability field, used as the `fix` of an error about that field. */
export const CAPABILITY_FIXES: Record<string, string> = {
  kind: `use kind = one of ${CAPABILITY_KINDS.map((k) => `"${k}"`).join(', ')}`,
  run: 'give the command line to run, e.g. run = "npm test"',
  when: 'say when to use it, e.g. when = "before you commit"',
  path: 'give the folder, e.g. path = "_capabilities/skills/checkout" (relative to the table\'s folder) or "~/skills/x"',
  secrets: 'list files that hold its secrets, e.g. secrets = ["~/.config/x/token.json"]',
  command: 'give the executable of the MCP server, e.g. command = "npx"',
  args: 'use a list of strings, e.g. args = ["-y", "@modelcontextprotocol/server-github"]',
  url: 'give the server address, e.g. url = "https://mcp.example.com/mcp"',
  env: 'list variable NAMES, e.g. env = ["GITHUB_TOKEN"], and put the values in <state>/env',
};
