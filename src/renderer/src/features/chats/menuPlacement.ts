/**
 * Where a drop-down menu goes so that it fits the window (the "New chat with…" menu in the 400×600
 * menu-bar popover, src/main/electron/windows.ts POPOVER_SIZE). Pure.
 */
import type { CSSProperties } from 'react';

/** Room kept between the menu and the window's edge (px). */
const EDGE = 8;
/** Gap between the button and the menu (px). */
const GAP = 4;

/**
 * Where the menu goes for a button at `button` in a window `height` px tall: below it (`top`) unless
 * there is more room above (`bottom`), with `maxHeight` the room left there, so it never runs past the
 * window's edge (it scrolls instead).
 */
export function menuPlacement(button: { top: number; bottom: number }, height: number): CSSProperties {
  const below = height - button.bottom - GAP - EDGE;
  const above = button.top - GAP - EDGE;
  if (below >= above) return { top: `calc(100% + ${GAP}px)`, bottom: 'auto', maxHeight: Math.max(0, Math.floor(below)) };
  return { top: 'auto', bottom: `calc(100% + ${GAP}px)`, maxHeight: Math.max(0, Math.floor(above)) };
}
