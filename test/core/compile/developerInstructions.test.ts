/**
 * What the agent is told (compile/developerInstructions.ts, sent as the thread's developerInstructions):
 * the `angelia` command and its chat when its commands can reach Angelia, what it can read, that there is
 * no /tmp, and how to ask for a folder.
 */
import { describe, expect, it } from 'vitest';
import { developerInstructions } from '../../../src/main/core/compile/developerInstructions';

describe('developer instructions', () => {
  const base = {
    profile: 'coder',
    stateDir: '/h/.angelia',
    tableFile: '/h/.angelia/workspace/angelia.toml',
    cwd: '/w',
    writable: [],
    sandboxed: true,
    mode: 'acceptEdits' as const,
  };
  it("name the `angelia` command and the agent's chat when its commands can reach Angelia", () => {
    const text = developerInstructions({ ...base, api: { command: '/h/.angelia/bin/angelia', chat: 'coder' } });
    expect(text).toContain(
      'run /h/.angelia/bin/angelia (the angelia command: write its full path, since a login shell may reset PATH; below it is written `angelia`). Your chat is "coder". `angelia send-media coder <file> [caption]`',
    );
    expect(developerInstructions(base)).not.toContain('angelia send-media');
    expect(developerInstructions({ ...base, mode: 'plan', api: { command: '/x', chat: 'coder' } })).not.toContain('angelia send-media');
  });

  it('say what the agent can read (HOME is private by default), that there is no /tmp, and the read_dirs fix', () => {
    for (const mode of ['acceptEdits', 'plan'] as const) {
      expect(developerInstructions({ ...base, mode })).toContain(
        'You can read only your folders, the system folders (/usr, /etc, /bin, /lib …) and what your profile names to read; nothing else of the home folder is there',
      );
    }
    const text = developerInstructions(base);
    expect(text).toContain('the temp folder ($TMPDIR; there is no /tmp)');
    expect(text).toContain('add the folder to add_dirs (to write) or read_dirs (to read) of profile "coder"');
  });
});
