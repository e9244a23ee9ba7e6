import { describe, expect, it } from '@jest/globals';
import { validatePluginConfig } from '../../../../src/plugins/loader/plugin-config.js';
import type { PluginManifest } from '../../../../src/plugins/loader/plugin-manifest.js';

const withSchema = (config?: Record<string, unknown>): PluginManifest => ({ name: 'p', version: '1.0.0', sluice: '*', provides: [], ...(config ? { config } : {}) });
const SCHEMA = { type: 'object', additionalProperties: false, properties: { level: { type: 'integer', default: 3 }, name: { type: 'string' } } };

describe('validatePluginConfig', () => {
  it('fills the schema defaults into a copy', () => {
    const given = { name: 'x' };
    expect(validatePluginConfig(withSchema(SCHEMA), given)).toEqual({ name: 'x', level: 3 });
    expect(given).toEqual({ name: 'x' });
  });

  it('names every key at fault', () => {
    expect(() => validatePluginConfig(withSchema(SCHEMA), { level: 'high', colour: 'red' })).toThrow(
      'plugin p: config: `colour` is not a known key (allowed here: level, name); `level` must be integer (got "high")',
    );
  });

  it('refuses settings for a plugin that takes none', () => {
    expect(() => validatePluginConfig(withSchema(), { level: 1 })).toThrow('plugin p: takes no config, but `config` sets `level`; remove it');
    expect(validatePluginConfig(withSchema(), {})).toEqual({});
  });

  it('refuses a manifest whose config is not a JSON Schema', () => {
    expect(() => validatePluginConfig(withSchema({ type: 'banana' }), {})).toThrow(/^plugin p: its manifest's `config` is not a valid JSON Schema/);
  });

  it('refuses an asynchronous schema, whose check would let any settings through', () => {
    const schema = { $async: true, type: 'object', properties: { level: { type: 'integer' } } };
    expect(() => validatePluginConfig(withSchema(schema), { level: 'high' })).toThrow(
      "plugin p: its manifest's `config` is an asynchronous JSON Schema (`$async: true`), which Sluice cannot check at start-up; remove `$async`",
    );
  });
});
