import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffFolders, generatedDir, generateProtocolTypes, listFiles } from '../../../scripts/gen-codex-protocol';

describe('generated Codex protocol types', () => {
  it('match what the pinned codex generates now (run `npm run gen:protocol` after a Codex bump)', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'angelia-gen-check-'));
    try {
      await generateProtocolTypes(fresh);
      expect((await listFiles(fresh)).length).toBeGreaterThan(100);
      expect(await diffFolders(generatedDir, fresh)).toEqual([]);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('diffFolders names files that differ or exist on one side only', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const a = await mkdtemp(join(tmpdir(), 'angelia-diff-a-'));
    const b = await mkdtemp(join(tmpdir(), 'angelia-diff-b-'));
    try {
      await mkdir(join(a, 'v2'));
      await mkdir(join(b, 'v2'));
      await writeFile(join(a, 'same.ts'), 'x');
      await writeFile(join(b, 'same.ts'), 'x');
      await writeFile(join(a, 'v2', 'changed.ts'), 'old');
      await writeFile(join(b, 'v2', 'changed.ts'), 'new');
      await writeFile(join(a, 'gone.ts'), '');
      await writeFile(join(b, 'v2', 'added.ts'), '');
      expect(await diffFolders(a, b)).toEqual([`gone.ts (only in ${a})`, `v2/added.ts (only in ${b})`, 'v2/changed.ts (content differs)']);
    } finally {
      await rm(a, { recursive: true, force: true });
      await rm(b, { recursive: true, force: true });
    }
  });
});
