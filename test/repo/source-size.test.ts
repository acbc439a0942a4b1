/**
 * The source stays small enough to read (docs/architecture.md "Checks that keep the shape"): no hand-written source file
 * under src/ is 600 lines or more, and the chat (src/main/core/chats/chat.ts), which holds only the shared
 * state and the turn machine's runner, stays under 450. Generated protocol types are not hand-written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const GENERATED = join('src', 'main', 'core', 'codex', 'generated');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return relative(ROOT, path) === GENERATED ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(e.name) ? [path] : [];
  });
}

const lines = (file: string): number => readFileSync(file, 'utf8').split('\n').length - 1;

describe('source size', () => {
  it('finds the sources it measures', () => {
    expect(sourceFiles(join(ROOT, 'src')).length).toBeGreaterThan(100);
  });

  it('no hand-written source file under src/ reaches 600 lines', () => {
    const over = sourceFiles(join(ROOT, 'src'))
      .map((f) => ({ file: relative(ROOT, f), lines: lines(f) }))
      .filter((f) => f.lines >= 600);
    expect(over).toEqual([]);
  });

  it('the chat stays under 450 lines', () => {
    expect(lines(join(ROOT, 'src', 'main', 'core', 'chats', 'chat.ts'))).toBeLessThan(450);
  });
});
