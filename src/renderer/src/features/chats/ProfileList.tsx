/**
 * The profiles, under the chat list: each with its folder and, when its sandbox is off, FULL ACCESS in
 * red; Edit opens the profile editor, Policy the policy inspector. "+ New profile" opens the editor on
 * a new one.
 */
import type { ReactElement } from 'react';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';

/** The profile section of the side bar. */
export function ProfileList(): ReactElement {
  const session = useSession();
  const profiles = useAppStore((s) => s.chats.profiles);
  const panel = useAppStore((s) => s.panel);
  const editing = useAppStore((s) => (s.panel.kind === 'editor' ? s.editor.original : null));
  const names = Object.keys(profiles).sort();
  return (
    <section className="profile-list" data-testid="profile-list" aria-label="Profiles">
      <div className="profile-list-head">
        <strong>Profiles</strong>
        <span className="spacer" />
        <button type="button" className="btn small" data-testid="new-profile-button" onClick={() => session.newProfile()}>
          + New profile
        </button>
      </div>
      <ul>
        {names.map((name) => {
          const p = profiles[name];
          const current = editing === name || (panel.kind === 'policy' && panel.profile === name);
          return (
            <li key={name} className={`profile-row${current ? ' selected' : ''}`} data-testid="profile-row" data-profile={name}>
              <div className="profile-row-text">
                <strong>{name}</strong>
                {p && !p.sandboxed && <span className="badge enf-disabled">FULL ACCESS</span>}
                <div className="meta profile-row-cwd" title={p?.cwd}>
                  {p?.cwd} · {p?.permissionMode}
                </div>
              </div>
              <button type="button" className="btn small" data-testid="profile-edit" onClick={() => session.editProfile(name)}>
                Edit
              </button>
              <button type="button" className="btn small" data-testid="profile-policy" onClick={() => session.openPolicy(name)}>
                Policy
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
