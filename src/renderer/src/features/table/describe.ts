/**
 * What the table review says, as pure functions: a key path as TOML spells it, each kind of change in
 * words, and the banner line.
 */
import type { TableChangesView } from '../../../../shared/contract';

/** One field-level change of the table. */
export type TableChange = TableChangesView['changes'][number];

const BARE = /^[A-Za-z0-9_-]+$/;

/** `["profiles","demo","add_dirs"]` → `profiles.demo.add_dirs` (odd keys quoted, list positions in brackets). */
export function keyPath(path: readonly string[]): string {
  if (path.length === 0) return '(top level)';
  return path
    .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : BARE.test(seg) ? seg : JSON.stringify(seg)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** The kind of a change in words. */
export const CHANGE_LABEL: Record<TableChange['kind'], string> = {
  added: 'added',
  removed: 'removed',
  changed: 'changed',
  'item-added': 'item added',
  'item-removed': 'item removed',
  reordered: 'reordered',
};

/** The banner line: how many changes wait, or that the table on disk does not load. */
export function bannerLine(count: number, broken: boolean): string {
  if (broken) return 'The table on disk was changed and does not load. Agents keep running on the accepted table.';
  const n = count === 1 ? '1 change waits' : `${count} changes wait`;
  return `The table changed on disk: ${n} for your review. Agents keep running on the accepted table until you accept.`;
}
