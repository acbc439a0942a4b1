/**
 * "Add this folder to the profile": opens the profile editor with the folder added to `add_dirs`.
 * Nothing is written until the user saves there.
 */
import type { ReactElement } from 'react';
import { useSession } from '../../api/session';

/** One link adding `folder` to `profile`'s add_dirs in the editor. */
export function AddFolderLink({ profile, folder }: { profile: string; folder: string }): ReactElement {
  const session = useSession();
  return (
    <button
      type="button"
      className="btn link add-folder"
      data-testid="add-folder-link"
      data-folder={folder}
      title="Opens the profile editor with this folder in add_dirs; nothing changes until you save"
      onClick={() => session.editProfile(profile, { addDir: folder })}
    >
      Add <code>{folder}</code> to the {profile} profile…
    </button>
  );
}
