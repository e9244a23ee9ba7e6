import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { SluiceError } from '../../../src/sdk/errors/index.js';
import { loadConfigWithSources, type ConfigSources } from '../../../src/config/index.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { writeConfigFile } from './config-test-support.js';

describe('where a loaded key came from', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  async function sourcesOf(file: string, env: Record<string, string> = {}): Promise<ConfigSources> {
    await writeConfigFile(dir, file);
    return loadConfigWithSources({ cwd: dir, env, overrides: { jobQueueSize: 5 } }).sources;
  }

  test('is the config file for a key only it sets', async () => {
    expect((await sourcesOf('auth: { management: nobody }\n')).sourceOf('auth.management')).toBe('sluice.yaml');
  });

  test('is the variable for a key it sets over the file', async () => {
    expect((await sourcesOf('auth: { management: nobody }\n', { SLUICE_AUTH_MANAGEMENT: 'none' })).sourceOf('auth.management')).toBe('SLUICE_AUTH_MANAGEMENT');
  });

  test('is the command-line flags for a key they set', async () => {
    expect((await sourcesOf('jobQueueSize: 7\n')).sourceOf('jobQueueSize')).toBe('command-line flags');
  });

  test('is the source of the whole list for a key inside a list', async () => {
    expect((await sourcesOf('plugins: [{ name: ocr }]\n', { SLUICE_PLUGINS: '[{"name": "nowhere"}]' })).sourceOf('plugins[0].name')).toBe('SLUICE_PLUGINS');
  });

  test('is unknown for a key at its default, though its section is set', async () => {
    expect((await sourcesOf('auth: { inference: none }\n')).sourceOf('auth.management')).toBeUndefined();
  });
});

describe('a configuration error found after loading', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  const sources = (env: Record<string, string>): ConfigSources => loadConfigWithSources({ cwd: dir, env }).sources;

  test('gets the source of its key in front of its message', () => {
    const error = new SluiceError('SLUICE_CONFIG_INVALID', '`auth.metrics` names "x"', { key: 'auth.metrics' });
    const attributed = sources({ SLUICE_AUTH_METRICS: 'x' }).attribute(error);
    expect(attributed).toBeInstanceOf(SluiceError);
    expect(attributed).toMatchObject({ code: 'SLUICE_CONFIG_INVALID', message: 'SLUICE_AUTH_METRICS: `auth.metrics` names "x"', details: { key: 'auth.metrics', source: 'SLUICE_AUTH_METRICS' } });
  });

  test('stays as it is when its key has its default', () => {
    const error = new SluiceError('SLUICE_CONFIG_INVALID', '`auth.management` names "token-auth"', { key: 'auth.management' });
    expect(sources({}).attribute(error)).toBe(error);
  });

  test('stays as it is when it already names its source', () => {
    const error = new SluiceError('SLUICE_CONFIG_INVALID', 'SLUICE_AUTH_METRICS: bad', { key: 'auth.metrics', source: 'SLUICE_AUTH_METRICS' });
    expect(sources({ SLUICE_AUTH_METRICS: 'x' }).attribute(error)).toBe(error);
  });

  test('of another code stays as it is', () => {
    const error = new SluiceError('SLUICE_PLUGIN_INVALID', 'plugin at ./p: sluice-plugin.yaml: `version` is required', { key: 'plugins[0]' });
    expect(sources({ SLUICE_PLUGINS: '[{"path": "p"}]' }).attribute(error)).toBe(error);
  });
});
