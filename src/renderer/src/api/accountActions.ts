/**
 * The actions of the sign-in screen and the usage meters: read the account and the usage (on every
 * (re)connect), start a sign-in (ChatGPT in the browser, a device code, or an API key), cancel it, sign
 * out, open and close the screen, and "Try now" on a usage-limit pause. Each invokes the core (`account:*`,
 * `usage:read`, `usage:resume`) and feeds the answer
 * to the store's pure transitions (store/account.ts, store/usage.ts). The API key goes once in the
 * `account:login` body and nowhere else: not into the store, not into a log. The browser is opened
 * through the host when it can (Electron's `shell.openExternal`, `RendererApi.openExternal`); in a
 * browser tab the link is shown to click.
 */
import type { LoginRequest } from '../../../shared/account';
import { accountActing, loggedOut, loginAnswered, loginCancelled, loginCleared, resumeAnswered } from '../store/account';
import { applyAccount, applyPanel, applyUsage, withSlice } from '../store/app';
import { usageUpdated } from '../store/usage';
import { update, useAppStore } from '../store/store';
import type { LinkedApi } from './wsApi';

/** What the sign-in screen and the meters can do. Failures land in the store (`account.error`). */
export interface AccountActions {
  /** Reads the account and the usage (on connect); a first run that needs a sign-in opens the screen once. */
  loadAccount(): Promise<void>;
  /** Opens the sign-in screen over the chat. */
  openSignIn(): void;
  /** Starts a sign-in. ChatGPT: its page opens in the browser when the host can open one. */
  signIn(req: LoginRequest): Promise<void>;
  /** Cancels the sign-in in flight (`account:loginCancel`). */
  cancelSignIn(): Promise<void>;
  /** Puts a finished or failed sign-in away: the ways to sign in are offered again. */
  clearSignIn(): void;
  /** Signs Codex out (`account:logout`). */
  signOut(): Promise<void>;
  /**
   * "Try now": lifts the usage-limit pause of `codexHome`, or of every paused home the window knows
   * (`usage:resume`); the core's chats then send their queued messages (docs/architecture.md "Usage").
   */
  resumeUsage(codexHome?: string): Promise<void>;
  /** Opens `url` in the system browser through the host; absent in a browser tab (the link is shown instead). */
  openExternal?: (url: string) => Promise<boolean>;
}

/** The actions over `api`; `leave` runs a change of the main area once an editor with unsaved edits lets it. */
export function accountActions(api: LinkedApi, leave: (go: () => void) => void): AccountActions {
  const open = api.openExternal;
  const openExternal = open ? (url: string) => open(url) : undefined;
  return {
    ...(openExternal ? { openExternal } : {}),
    async loadAccount() {
      const [account, usage] = await Promise.all([api.invoke('account:read', {}), api.invoke('usage:read', {})]);
      if (account.ok) update((s) => applyAccount(s, account.value));
      if (usage.ok) update((s) => applyUsage(s, usage.value));
    },
    openSignIn() {
      leave(() => update((s) => applyPanel(s, { kind: 'account' })));
    },
    async signIn(req) {
      update((s) => withSlice(s, 'account', accountActing(s.account, req.method)));
      const r = await api.invoke('account:login', req);
      update((s) => withSlice(s, 'account', loginAnswered(s.account, r)));
      if (r.ok && r.value.state === 'pending' && r.value.authUrl && openExternal) await openExternal(r.value.authUrl);
    },
    async cancelSignIn() {
      const loginId = useAppStore.getState().account.login?.loginId;
      if (!loginId) {
        update((s) => withSlice(s, 'account', loginCleared(s.account)));
        return;
      }
      update((s) => withSlice(s, 'account', accountActing(s.account, 'cancel')));
      const r = await api.invoke('account:loginCancel', { loginId });
      update((s) => withSlice(s, 'account', loginCancelled(s.account, r)));
    },
    async resumeUsage(codexHome) {
      const homes = useAppStore.getState().usage.homes;
      const paused = homes.filter((h) => h.pausedUntil !== null).map((h) => h.codexHome);
      const targets = codexHome ? [codexHome] : paused.length ? paused : homes.map((h) => h.codexHome);
      for (const home of targets) {
        const r = await api.invoke('usage:resume', { codexHome: home });
        update((s) => withSlice(r.ok ? withSlice(s, 'usage', usageUpdated(s.usage, r.value)) : s, 'account', resumeAnswered(s.account, r)));
      }
    },
    clearSignIn() {
      update((s) => withSlice(s, 'account', loginCleared(s.account)));
    },
    async signOut() {
      update((s) => withSlice(s, 'account', accountActing(s.account, 'logout')));
      const r = await api.invoke('account:logout', {});
      update((s) => withSlice(s, 'account', loggedOut(s.account, r)));
    },
  };
}
