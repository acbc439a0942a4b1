/**
 * The editor renders every field of a profile from the one list of fields (src/shared/profileFields.ts):
 * each key has its widget in its section, labelled; `env`, `media_tags` and `backend` are edited like the
 * rest, and a save of them writes the table as a hand edit would (comments and other keys kept).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProfileDraft } from '../../src/shared/contract';
import { EDITOR_SECTIONS, fieldSpec } from '../../src/shared/profileFields';
import { draftFromRaw, rawProfile } from '../../src/main/core/profiles/draft';
import { editTableText } from '../../src/main/core/profiles/tableEdit';
import { EditorFields } from '../../src/renderer/src/features/profiles/EditorFields';
import { draftChanges, newDraft } from '../../src/renderer/src/features/profiles/draft';

const draft = (over: Partial<ProfileDraft> = {}): ProfileDraft => ({ ...newDraft('demo', '/p/demo'), ...over });

/** The editor's markup for `d` (an edit, every section open). */
function markup(d: ProfileDraft): string {
  return renderToStaticMarkup(
    <EditorFields
      draft={d}
      issues={{ byField: {}, general: [] }}
      set={() => undefined}
      profiles={['demo', 'other']}
      catalog={null}
      tableDir="/w"
      capabilityNames={['git']}
      isNew={false}
    />,
  );
}

/** The element with `data-testid="<id>"`, as markup up to its end tag's first match (enough for attributes and text). */
const tagOf = (html: string, id: string): string => {
  const at = html.indexOf(`data-testid="${id}"`);
  expect(at, id).toBeGreaterThan(-1);
  return html.slice(html.lastIndexOf('<', at), html.indexOf('>', at) + 1);
};

describe('the editor, from the list of fields', () => {
  it('shows every section and, in it, every field with its label', () => {
    const html = markup(draft());
    for (const section of EDITOR_SECTIONS) {
      expect(html).toContain(`data-testid="section-${section.id}"`);
      for (const field of section.fields) expect(html, field).toContain(fieldSpec(field).label);
    }
  });

  it('edits env as names, media_tags as a checkbox and backend as a choice', () => {
    const html = markup(draft({ env: ['GH_TOKEN', 'NPM_TOKEN'], media_tags: true }));
    expect(html).toContain('data-testid="field-env"');
    expect(html.match(/data-testid="env-chip"/g)).toHaveLength(2);
    expect(html).toContain('GH_TOKEN');
    expect(tagOf(html, 'media-tags-check')).toContain('checked');
    expect(tagOf(markup(draft()), 'media-tags-check')).not.toContain('checked');
    expect(tagOf(html, 'backend-select')).toContain('id="f-backend"');
    expect(html).toContain('<option value="codex" selected="">codex</option>');
  });

  it('keeps the widgets the window had (test ids of the older fields)', () => {
    const html = markup(draft({ add_dirs: ['/x'], read_dirs: ['~/notes'], accept_from: '*' }));
    for (const id of [
      'name-input',
      'cwd-input',
      'sandbox-check',
      'mode-option',
      'add-dirs-row',
      'read-dirs-row',
      'read-dirs-starter-back',
      'capabilities',
      'except',
      'deny',
      'isolated-check',
      'accept-from-all',
      'answer-from',
      'shared-write-check',
      'unsafe-ok-check',
      'bin-input',
      'model-input',
      'effort-select',
    ]) {
      expect(html, id).toContain(`data-testid="${id}"`);
    }
    expect(markup(draft())).toContain('data-testid="read-dirs-starter"');
  });

  it('lists a change to env, media_tags or backend among what Save changes', () => {
    expect(draftChanges(draft(), draft({ env: ['GH_TOKEN'], media_tags: true })).map((c) => [c.field, c.before, c.after])).toEqual([
      ['env', '[]', '["GH_TOKEN"]'],
      ['media_tags', 'false', 'true'],
    ]);
  });
});

describe('saving env, media_tags and backend', () => {
  const FILE = '/t/angelia.toml';
  const TEXT = '[profiles.a]\ncwd = "/w/a" # home\nenv = ["GH_TOKEN"] # for gh\nbackend = "codex"\n';

  it('loads them as written and writes back only what changed', () => {
    const d = draftFromRaw('a', rawProfile(TEXT, 'a', FILE));
    expect(d).toMatchObject({ env: ['GH_TOKEN'], backend: 'codex', media_tags: false });
    expect(editTableText(TEXT, { draft: d, original: 'a' }, FILE)).toBe(TEXT);
    expect(editTableText(TEXT, { draft: { ...d, env: ['GH_TOKEN', 'NPM_TOKEN'], media_tags: true }, original: 'a' }, FILE)).toBe(
      '[profiles.a]\ncwd = "/w/a" # home\nenv = ["GH_TOKEN", "NPM_TOKEN"] # for gh\nbackend = "codex"\nmedia_tags = true\n',
    );
  });

  it('a new profile writes them only when they differ from their defaults', () => {
    const out = editTableText('', { draft: { ...newDraft('n', '/w/n'), env: ['GH_TOKEN'] }, original: null }, FILE);
    expect(out).toContain('[profiles.n]');
    expect(out).toContain('env = ["GH_TOKEN"]');
    expect(out).not.toContain('backend');
    expect(out).not.toContain('media_tags');
  });
});
