/**
 * Small readers for untyped Codex wire values (JSON-RPC params and results): the one place that says
 * what counts as an object, a string or a list of strings.
 */

/** A JSON object as read off the wire. */
export type Obj = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value when it is a string, else null. */
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The strings of an array (other elements dropped); [] when not an array. */
export const strList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
