/**
 * Encoding of Codex `-c key=value` overrides. Every value (and every key inside an inline table) is
 * encoded by smol-toml's `stringify`, never by hand. A `-c` key itself is a dotted path of bare words
 * only: Codex 0.169.0 splits `-c` keys on dots and keeps quotes, so a path must never appear in a key
 * (`permissions.angelia.filesystem."/p"="deny"` fails: "filesystem path `"/p"` must be absolute").
 */
import { stringify } from 'smol-toml';
import { AppFailure } from '../../../shared/result';

/** A scalar or list of strings a flag may carry. */
export type FlagValue = string | number | boolean | string[];

const DOTTED_BARE_KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** `stringify({k: v})` gives `k = <value>\n`; this returns `<value>`. */
function encodeScalar(value: string | number | boolean): string {
  const line = stringify({ v: value }).trimEnd();
  return line.slice('v = '.length);
}

/** The TOML spelling of a value: `"text"`, `true`, `10`, `["a", "b"]`. */
export function tomlValue(value: FlagValue): string {
  if (Array.isArray(value)) return `[${value.map((item) => encodeScalar(item)).join(', ')}]`;
  return encodeScalar(value);
}

/**
 * One TOML inline table, `{"k1" = "v1", k2 = ["a", "b"]}`, keys in the given order, each
 * `key = value` pair produced by smol-toml (a list stays an inline array). Throws AppFailure
 * `compile-unencodable` for a key or value TOML cannot hold (a lone UTF-16 surrogate), so a rule is
 * refused rather than silently altered.
 */
export function inlineTable(entries: ReadonlyArray<readonly [string, FlagValue]>): string {
  const pairs = entries.map(([key, value]) => {
    try {
      return stringify({ [key]: value }).trimEnd();
    } catch (e) {
      throw new AppFailure({
        code: 'compile-unencodable',
        message: `${JSON.stringify(key)} = ${JSON.stringify(value)} cannot be written as TOML (${e instanceof Error ? e.message : String(e)})`,
        where: key,
        fix: 'rename the folder (or change the value) so it is valid Unicode',
      });
    }
  });
  return `{${pairs.join(', ')}}`;
}

/**
 * A `-c` override as two argv entries: `['-c', '<key>=<encoded>']`. `key` must be a dotted path of
 * bare words (letters, digits, `_`, `-`); anything else throws (a programming error, not user input).
 * `encoded` must already be TOML (from `tomlValue` or `inlineTable`).
 */
export function configFlag(key: string, encoded: string): [string, string] {
  if (!DOTTED_BARE_KEY.test(key)) throw new Error(`refusing a -c key that is not a dotted path of bare words: ${key}`);
  return ['-c', `${key}=${encoded}`];
}
