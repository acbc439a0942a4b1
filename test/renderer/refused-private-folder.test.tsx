/**
 * A command the sandbox refused inside Angelia's private state or a Codex home offers no "Add … to the
 * profile" link (no profile can be given such a folder, docs/security-model.md; the editor would refuse
 * it): the chat says it is Angelia's private state. Any other refused folder is still offered.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SessionContext, type Session } from '../../src/renderer/src/api/session';
import { RefusedFolderView } from '../../src/renderer/src/features/chat/CommandItem';
import { folderToOffer, privateFolder, type PrivatePlaces } from '../../src/renderer/src/features/profiles/addFolder';
import { initialChats, setPrivatePlaces } from '../../src/renderer/src/store/chats';

const places: PrivatePlaces = { stateDir: '/h/.local/state/angelia', codexHomes: ['/h/.angelia-codex', '/h/.codex'] };

describe('privateFolder: folders no profile can be given', () => {
  it.each([
    ['/h/.local/state/angelia', "is Angelia's private state"],
    ['/h/.local/state/angelia/private', "is Angelia's private state"],
    ['/h/.local/state/angelia/cache/codex/x', "is Angelia's private state"],
    ['/h/.local/state', "holds Angelia's private state (/h/.local/state/angelia)"],
    ['/h/.codex', 'is a Codex home (/h/.codex)'],
    ['/h/.angelia-codex/sessions/2026', 'is in a Codex home (/h/.angelia-codex)'],
    ['/h/.codex/', 'is a Codex home (/h/.codex)'],
  ])('%s %s', (folder, says) => {
    const text = privateFolder(folder, places);
    expect(text).toContain(says);
    expect(text).toContain('which no profile can be given');
  });

  it.each([['/h/.local/state/angelia/workspace'], ['/h/.local/state/angelia/workspace/_shared'], ['/h/other'], ['/h/.codexfoo'], ['/h/.local/state/angelia2']])(
    '%s can be offered',
    (folder) => {
      expect(privateFolder(folder, places)).toBeNull();
    },
  );

  it('offers everything while the places are not known yet', () => {
    expect(privateFolder('/h/.codex', null)).toBeNull();
    expect(privateFolder('/h/.codex', undefined)).toBeNull();
  });
});

describe('the refused command in the chat', () => {
  const session = {} as Session;
  /** The notice under a refused command of profile demo whose output names `output`'s path. */
  const shown = (output: string): string => {
    const folder = folderToOffer(output, '/p/demo', { cwd: '/p/demo', addDirs: [] });
    expect(folder).not.toBeNull();
    return renderToStaticMarkup(
      <SessionContext.Provider value={session}>
        <RefusedFolderView folder={folder as string} profile="demo" places={places} />
      </SessionContext.Provider>,
    );
  };

  it("says a folder of Angelia's private state cannot be given, with no link to the editor", () => {
    const html = shown("cat: '/h/.local/state/angelia/private/api.token': Permission denied");
    expect(html).toContain('The sandbox refused it.');
    expect(html).not.toContain('add-folder-link');
    expect(html).toContain('data-testid="private-folder"');
    expect(html).toContain('/h/.local/state/angelia/private is Angelia&#x27;s private state, which no profile can be given');
  });

  it('says the same of a Codex home', () => {
    const html = shown("cat: '/h/.codex/auth.json': Permission denied");
    expect(html).not.toContain('add-folder-link');
    expect(html).toContain('/h/.codex is a Codex home (/h/.codex)');
  });

  it('still offers any other folder', () => {
    const html = shown("cat: '/h/other/notes.txt': Permission denied");
    expect(html).toContain('data-testid="add-folder-link"');
    expect(html).toContain('/h/other');
    expect(html).not.toContain('private-folder');
  });
});

describe('the store keeps the places app:info names', () => {
  it('sets them once, and keeps the slice when they are the same', () => {
    const once = setPrivatePlaces(initialChats, places);
    expect(once.privatePlaces).toEqual(places);
    expect(setPrivatePlaces(once, { ...places })).toBe(once);
  });
});
