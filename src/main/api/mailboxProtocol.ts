/**
 * The mailbox channel's files (docs/sandbox-sockets.md), shared by Angelia (mailbox.ts) and the agents'
 * `angelia` commands (mailboxClient.ts). Inside a chat's mailbox folder (core/launch/mailbox.ts):
 *
 * - the command writes `<uuid>.req.json` atomically (a dot-name first, then renamed): one JSON object
 *   `{api: 1, token, from?, method, path, query?, body?}` of at most MAX_REQUEST_BYTES;
 * - Angelia takes it (reads it through O_NOFOLLOW, checks it is a regular file with one link, deletes it),
 *   answers it through the same handler and checks as the socket, and writes `<uuid>.res.json`
 *   atomically: `{api: 1, id, status, body}` (the HTTP status and JSON body the socket would have given);
 * - the command reads the answer and deletes it.
 *
 * Every other name is ignored by Angelia (Codex briefly mounts `.git`, `.codex`, `.agents`, `.aws` in
 * every writable folder during each command; temporary files start with a dot).
 */
import { z } from 'zod';
import { MAX_BODY_BYTES } from './handler';

/** The protocol version both sides write. */
export const MAILBOX_API = 1 as const;

/** The largest request file: the largest body plus room for the other fields. */
export const MAX_REQUEST_BYTES = MAX_BODY_BYTES + 16 * 1024;

/** The largest answer file a command reads (answers are small; `/profiles` of many chats is the largest). */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** A request file's name; group 1 is the request id. */
export const REQUEST_NAME = new RegExp(`^(${UUID})\\.req\\.json$`);
/** An answer file's name; group 1 is the request id. */
export const RESPONSE_NAME = new RegExp(`^(${UUID})\\.res\\.json$`);

/** The request file of `id`. */
export function requestName(id: string): string {
  return `${id}.req.json`;
}

/** The answer file of `id`. */
export function responseName(id: string): string {
  return `${id}.res.json`;
}

/** A request file's content. `path` holds no query: the query is `query`. */
export const MailboxRequest = z
  .object({
    api: z.literal(MAILBOX_API),
    token: z.string().min(1).max(512).nullable().describe("the chat token (the identity file's), or null for a public route"),
    from: z.string().min(1).max(200).optional().describe("the sending chat; must be the mailbox's own"),
    method: z.enum(['GET', 'POST']),
    path: z
      .string()
      .regex(/^\/[^?#\s]*$/, 'an absolute path without query or fragment')
      .max(2048),
    query: z.record(z.string(), z.string().max(4096)).optional(),
    body: z.record(z.string(), z.unknown()).optional().describe('the JSON object body of a POST'),
  })
  .strict();
export type MailboxRequest = z.infer<typeof MailboxRequest>;

/** An answer file's content. */
export const MailboxResponse = z
  .object({
    api: z.literal(MAILBOX_API),
    id: z.string(),
    status: z.number().int().min(100).max(599),
    body: z.unknown(),
  })
  .strict();
export type MailboxResponse = z.infer<typeof MailboxResponse>;
