/**
 * Branded ids. A ProfileName is a key of `profiles` in angelia.toml; a ChatId is Angelia's own id for
 * one conversation with one profile's agent; a ThreadId is the id Codex mints on `thread/start`
 * (UUIDv7 in codex 0.169.0); an ApprovalId is Angelia's own id for one server request (a UUID, never
 * the JSON-RPC id, which Codex counts from 0 per process).
 */
export type Brand<T, B extends string> = T & { readonly __brand: B };
export type ProfileName = Brand<string, 'ProfileName'>;
export type ChatId = Brand<string, 'ChatId'>;
export type ThreadId = Brand<string, 'ThreadId'>;
export type ApprovalId = Brand<string, 'ApprovalId'>;

export const profileName = (s: string): ProfileName => s as ProfileName;
export const chatId = (s: string): ChatId => s as ChatId;
export const threadId = (s: string): ThreadId => s as ThreadId;
export const approvalId = (s: string): ApprovalId => s as ApprovalId;
