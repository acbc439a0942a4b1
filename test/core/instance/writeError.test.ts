import { describe, expect, it } from 'vitest';
import { WriteError, asWriteError, writeErrorMessage } from '../../../src/main/core/instance/writeError';

const KEPT = 'The previous version was left as it was.';

describe('writeErrorMessage', () => {
  it.each([
    ['ENOSPC', `Could not write /s/private/sessions.json: the disk is full (ENOSPC). ${KEPT} Free some space and try again.`],
    ['EDQUOT', `Could not write /s/private/sessions.json: the disk is full (EDQUOT). ${KEPT} Free some space and try again.`],
    ['EACCES', `Could not write /s/private/sessions.json: the folder /s/private is not writable (EACCES). ${KEPT}`],
    ['EPERM', `Could not write /s/private/sessions.json: the folder /s/private is not writable (EPERM). ${KEPT}`],
    ['EROFS', `Could not write /s/private/sessions.json: the folder /s/private is on a read-only file system (EROFS). ${KEPT}`],
    ['EIO', 'Could not write /s/private/sessions.json: EIO: i/o error, write'],
    [undefined, 'Could not write /s/private/sessions.json: EIO: i/o error, write'],
  ])('%s', (code, text) => {
    expect(writeErrorMessage('/s/private/sessions.json', code, 'EIO: i/o error, write')).toBe(text);
  });
});

describe('asWriteError', () => {
  it('wraps an errno error, keeping its code and the cause', () => {
    const raw = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const e = asWriteError('/s/t.json', raw);
    expect(e).toBeInstanceOf(WriteError);
    expect(e).toMatchObject({ code: 'ENOSPC', path: '/s/t.json', cause: raw });
    expect(asWriteError('/other', e)).toBe(e);
  });

  it('leaves an error without an errno code as it is', () => {
    const plain = new Error('bad record');
    expect(asWriteError('/s/t.json', plain)).toBe(plain);
    expect(asWriteError('/s/t.json', 'text')).toBe('text');
  });
});
