/**
 * A profile as the editor holds it (the contract's ProfileDraft): the raw values written in the table
 * (paths keep their `~`), every field present, null for the optional ones left out. The fields, their
 * order and their defaults come from the one list of a profile's fields (src/shared/profileFields.ts),
 * never from a second list. Pure.
 */
import { parse } from 'smol-toml';
import type { ProfileDraft } from '../../../shared/contract';
import { FIELD_KEYS, fieldDefault as sharedDefault, fieldSpec, type FieldKey } from '../../../shared/profileFields';
import { AppFailure } from '../../../shared/result';
import { syntaxFailure } from '../table/errors';
import { profileSchema } from '../table/schema';

/** The fields the editor edits, in the order a new profile's keys are written: every key of a profile. */
export const DRAFT_FIELDS: readonly FieldKey[] = FIELD_KEYS;
/** One of DRAFT_FIELDS. */
export type DraftField = FieldKey;

/** The fields that may be null in a draft (null = left out of the table; `read_dirs` left out is the starter set). */
export const OPTIONAL_FIELDS: ReadonlySet<DraftField> = new Set(FIELD_KEYS.filter((k) => fieldSpec(k).optional));

/** A parsed TOML table (plain object). */
export type TomlObject = Record<string, unknown>;

/** True for a plain object (a TOML table), not a list, date or scalar. */
export function isTable(v: unknown): v is TomlObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/**
 * The value a field takes when it is left out of the table: the schema's default (`sandbox` true,
 * `permission_mode` "acceptEdits", lists [] …), null for `bin`, `model`, `effort`. `cwd` has none
 * (it is required): null.
 */
export function fieldDefault(field: DraftField): unknown {
  return sharedDefault(field);
}

/**
 * Parses table text with smol-toml (the parser the loader uses). Throws AppFailure `table-syntax`
 * (line, column, offending line) when the text is not TOML.
 */
export function parseToml(text: string, file: string): TomlObject {
  try {
    return parse(text) as TomlObject;
  } catch (e) {
    throw syntaxFailure(file, text, e);
  }
}

/** The `[profiles]` table of a parsed table ({} when absent or not a table). */
export function profilesOf(root: TomlObject): TomlObject {
  return isTable(root.profiles) ? root.profiles : {};
}

/**
 * The raw `[profiles.<name>]` table of `text`. Throws AppFailure `table-syntax`, or `profile-unknown`
 * (naming the table file and the profiles it has).
 */
export function rawProfile(text: string, name: string, file: string): TomlObject {
  const profiles = profilesOf(parseToml(text, file));
  const raw = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (isTable(raw)) return raw;
  throw new AppFailure({
    code: 'profile-unknown',
    message: `there is no profile ${JSON.stringify(name)} in the table`,
    where: `${file}: profiles.${name}`,
    fix: `use one of: ${Object.keys(profiles).join(', ') || '(none yet: create one)'}`,
  });
}

/**
 * The draft of profile `name` from its raw table: each field as written when it is valid for the
 * schema, else its default (so a profile with one bad field can still be opened and corrected; the
 * load errors of a preview name the bad field). `cwd` is kept as written ("" when missing).
 */
export function draftFromRaw(name: string, raw: TomlObject): ProfileDraft {
  const out: Record<string, unknown> = { name };
  for (const field of DRAFT_FIELDS) {
    const value = raw[field];
    if (field === 'cwd') out.cwd = typeof value === 'string' ? value : '';
    else if (value === undefined) out[field] = fieldDefault(field);
    else {
      const parsed = profileSchema.shape[field].safeParse(value);
      out[field] = parsed.success ? (parsed.data ?? null) : fieldDefault(field);
    }
  }
  return out as ProfileDraft;
}
