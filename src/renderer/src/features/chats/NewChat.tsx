/**
 * "New chat": a button that opens the list of profiles; picking one invokes `chats:create` and opens the
 * new chat. A profile may have several chats, each with its own sessions. The menu always fits the
 * window (the menu-bar popover is 400×600, src/main/electron/windows.ts POPOVER_SIZE): it opens below
 * the button, or above it when there is more room there, and scrolls when the profiles do not fit.
 * Escape or a click elsewhere closes it.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type ReactElement } from 'react';
import { menuPlacement } from './menuPlacement';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';

/** The New chat button and its profile menu. */
export function NewChat(): ReactElement {
  const session = useSession();
  const profiles = useAppStore((s) => s.chats.profiles);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<CSSProperties>({});
  const names = Object.keys(profiles).sort();

  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent): void => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    // Captured first and marked handled, so an editor open beside the menu does not also close on it.
    const escape = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      setOpen(false);
    };
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', escape, true);
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('keydown', escape, true);
    };
  }, [open]);

  // Fit the menu in the window: below the button or above it (whichever has more room), at most that tall.
  const fit = useCallback((): void => {
    const button = box.current?.querySelector('button');
    if (!button) return;
    setPlace(menuPlacement(button.getBoundingClientRect(), window.innerHeight));
  }, []);
  useLayoutEffect(() => {
    if (!open) return;
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [open, fit]);

  const create = async (profile: string): Promise<void> => {
    setBusy(profile);
    setProblem(null);
    const r = await session.create(profile);
    setBusy(null);
    if (r.ok) setOpen(false);
    else setProblem(`Could not open a chat on ${profile}: ${r.error.message}`);
  };

  return (
    <div className="new-chat" ref={box}>
      <button type="button" className="btn small" data-testid="new-chat-button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        + New chat
      </button>
      {open && (
        <div className="new-chat-menu" role="menu" data-testid="new-chat-menu" style={place}>
          <div className="meta new-chat-title">New chat with…</div>
          {names.length === 0 && <div className="meta">No profiles yet.</div>}
          {names.map((name) => (
            <button
              key={name}
              type="button"
              role="menuitem"
              className="new-chat-item"
              data-testid="new-chat-profile"
              data-profile={name}
              disabled={busy !== null}
              onClick={() => void create(name)}
            >
              <strong>{name}</strong>
              <span className="meta">{profiles[name]?.cwd}</span>
            </button>
          ))}
          {problem && <div className="approval-note">{problem}</div>}
        </div>
      )}
    </div>
  );
}
