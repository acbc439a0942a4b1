/**
 * Codex's own config in force for the editor's "default" model and effort: `model` and
 * `model_reasoning_effort` of a `config/read` answer with the layer that set each (codex 0.169.0 shapes:
 * `origins[key].name` is a ConfigLayerSource; measured with a user config.toml). The live path runs in
 * test/integration/profiles.test.ts against the pinned Codex.
 */
import { describe, expect, it } from 'vitest';
import { configInForce, layerSource } from '../../../src/main/core/codex/answers';

const user = { name: { type: 'user', file: '/h/.codex/config.toml', profile: null }, version: 'sha256:x' };

describe('config in force (config/read)', () => {
  it('reads model and model_reasoning_effort with the layer that set them', () => {
    const answer = {
      config: { model: 'gpt-5.5', model_reasoning_effort: 'high', model_provider: 'mock' },
      origins: { model: user, model_reasoning_effort: { name: { type: 'project', dotCodexFolder: '/p/.codex' }, version: 'v' } },
      layers: null,
    };
    expect(configInForce(answer)).toEqual({
      model: { value: 'gpt-5.5', source: 'your Codex config (/h/.codex/config.toml)' },
      effort: { value: 'high', source: 'the project config (/p/.codex/config.toml)' },
    });
  });

  it('gives null for a key that is unset, empty or not a string, and a plain source when no origin is named', () => {
    expect(configInForce({ config: { model: '', model_reasoning_effort: 3 }, origins: {} })).toEqual({ model: null, effort: null });
    expect(configInForce({ config: { model: 'm' } })).toEqual({ model: { value: 'm', source: "Codex's config" }, effort: null });
    expect(configInForce(null)).toEqual({ model: null, effort: null });
  });

  it('names every kind of layer in words', () => {
    expect(layerSource({ name: { type: 'user', file: '/h/c.toml', profile: 'work' } })).toBe('the Codex profile "work" of your Codex config (/h/c.toml)');
    expect(layerSource({ name: { type: 'system', file: '/etc/codex/config.toml' } })).toBe('the system Codex config (/etc/codex/config.toml)');
    expect(layerSource({ name: { type: 'sessionFlags' } })).toBe("Codex's command line (-c)");
    expect(layerSource({ name: { type: 'enterpriseManaged', id: 'x', name: 'Corp' } })).toBe('a managed config set by your administrator');
    expect(layerSource({ name: { type: 'packagedDefaults', file: '/x' } })).toBe("Codex's packaged defaults");
    expect(layerSource(undefined)).toBe("Codex's config");
  });
});
