/**
 * The one rule for `~` in a path Angelia is given (the table, the editor, settings.json rules, a file an
 * agent names, `ANGELIA_STATE_DIR`): `~` alone and `~/…` mean the user's home; nothing else does. `~user`
 * is never looked up (another account's home is not Angelia's to name), and a `~` elsewhere (`a~b`,
 * `/x/~`) is an ordinary character. Pure string work, no Node module, so the renderer (which shows `~`
 * paths as written) and the CLI's cold start use the same rule as the core.
 */

/** True for `~` and `~/…`: the paths `expandHome` expands. */
export function isHomePath(p: string): boolean {
  return p === '~' || p.startsWith('~/');
}

/**
 * `~` → `home`; `~/rest` → `<home>/<rest>` as written (not normalised: a `..` in `rest` still applies
 * to the real folder it follows, and a caller that wants a lexical path normalises or resolves it);
 * anything else is returned unchanged, `~user/…` and `a~b` included. `home` is an absolute path.
 */
export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return `${home.replace(/\/+$/, '')}/${p.slice(2)}`;
  return p;
}
