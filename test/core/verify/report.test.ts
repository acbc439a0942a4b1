import { describe, expect, it } from 'vitest';
import { reportJson, reportText } from '../../../src/main/core/verify/report';
import type { VerifyReport } from '../../../src/main/core/verify/run';

const REPORT: VerifyReport = {
  profile: 'coder',
  codexVersion: '0.169.0',
  probes: [
    { name: 'control: a command runs', path: '/w/coder', op: 'run', expected: 'allowed', observed: 'allowed: ran', pass: true },
    { name: 'last compile: denied', path: '/h/.ssh', op: 'read', expected: 'denied', observed: 'allowed: 6 entries listed', pass: false },
    { name: 'denied: credential location', path: '/h/.aws', op: 'read', expected: 'denied', observed: 'skipped: does not exist', pass: null },
  ],
  pass: false,
};

describe('verify report', () => {
  it('JSON: exactly the stable keys, in order; a skipped row has pass null', () => {
    const j = JSON.parse(reportJson({ ...REPORT, probes: REPORT.probes.map((p) => ({ ...p, extra: 1 }) as never) })) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual(['profile', 'codexVersion', 'probes', 'pass']);
    expect(j.probes).toEqual(REPORT.probes);
  });

  it('text: the probes that ran as aligned columns, those not run listed, and the verdict', () => {
    expect(reportText(REPORT).split('\n')).toEqual([
      "profile coder · codex 0.169.0 · each probe ran in `codex sandbox` with the profile's compiled flags",
      'probe                    path      op    expected  observed                   pass',
      'control: a command runs  /w/coder  run   allowed   allowed: ran               ok',
      'last compile: denied     /h/.ssh   read  denied    allowed: 6 entries listed  FAIL',
      'not run (1):',
      '  denied: credential location: /h/.aws (read) - does not exist',
      'FAIL: 1 of 2 probes did not hold, 1 not run',
      '',
    ]);
    expect(
      reportText({ ...REPORT, probes: REPORT.probes.slice(0, 1), pass: true, codexVersion: null })
        .split('\n')
        .slice(-2)[0],
    ).toBe('PASS: 1 probes held');
  });

  it('JSON gains `home` when the scan ran; the text says what a command reads in HOME', () => {
    const home = {
      root: '/h',
      grants: ['/h/notes'],
      seen: [
        { path: '/h/.ssh', kind: 'd', as: 'denied' as const },
        { path: '/h/ws', kind: 'D', as: 'way' as const },
      ],
      notGranted: [],
    };
    const j = JSON.parse(reportJson({ ...REPORT, home })) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual(['profile', 'codexVersion', 'probes', 'pass', 'home']);
    expect(j.home).toEqual(home);
    const text = reportText({ ...REPORT, home });
    expect(text).toContain(
      'HOME /h: a command reads nothing but the grants:\n  granted  /h/notes\n  also seen: 1 folders on the way to them, 1 empty deny mount points (kept for escalated commands), 0 Codex helper links\n',
    );
    expect(reportText({ ...REPORT, home: { ...home, notGranted: ['/h/.gemini'] } })).toContain('HOME /h: a command reads MORE than the grants:');
  });
});
