import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { loadConfig } from '../../../src/config/index.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { configErrorMessage, writeConfigFile } from './config-test-support.js';

describe('the plugins list', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  test('is empty by default', () => {
    expect(loadConfig({ cwd: dir, env: {} }).plugins).toEqual([]);
  });

  test('resolves plugin folders and where packages are looked up against the config file', async () => {
    await writeConfigFile(dir, 'plugins:\n  - { path: local/my-plugin }\n  - { package: sluice-plugin-x, optional: true }\n  - { name: token-auth, config: { expirationMinutes: 5 } }\n');
    expect(loadConfig({ cwd: '/', configFile: join(dir, 'sluice.yaml'), env: {} }).plugins).toEqual([
      { path: join(dir, 'local', 'my-plugin'), from: dir },
      { package: 'sluice-plugin-x', optional: true, from: dir },
      { name: 'token-auth', config: { expirationMinutes: 5 }, from: dir },
    ]);
  });

  test('is taken as JSON from SLUICE_PLUGINS, relative to the working directory', () => {
    const config = loadConfig({ cwd: dir, env: { SLUICE_PLUGINS: '[{"path": "p"}]' } });
    expect(config.plugins).toEqual([{ path: join(dir, 'p'), from: dir }]);
  });

  test('refuses an entry with an unknown key, naming it', async () => {
    await writeConfigFile(dir, 'plugins:\n  - { pkg: x }\n');
    expect(configErrorMessage(() => loadConfig({ cwd: dir, env: {} }))).toMatch(/^sluice\.yaml: `plugins\[0\]\.pkg` is not a known key \(allowed here: name, path, package, from, optional, enabled, config\)/);
  });
});
