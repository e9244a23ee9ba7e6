import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { loadConfigWithSources } from '../../../src/config/index.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { configErrorMessage, writeConfigFile } from './config-test-support.js';

describe('config: --ts-config', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  const load = (env: Readonly<Record<string, string>> = {}, overrides = {}): ReturnType<typeof loadConfigWithSources> =>
    loadConfigWithSources({ cwd: dir, env, tsConfigFile: 'config.properties', overrides });

  test('config.properties sits over sluice.yaml and under SLUICE_* and the flags', async () => {
    await writeConfigFile(dir, 'jobQueueSize: 3\ndefaultWorkers: 3\nresponseTimeoutMs: 3000\n');
    await writeConfigFile(dir, 'job_queue_size=5\ndefault_workers_per_model=5\ndefault_response_timeout=5\n', 'config.properties');
    const { config, sources } = load({ SLUICE_DEFAULT_WORKERS: '7' }, { responseTimeoutMs: 9000 });
    expect(config).toMatchObject({ jobQueueSize: 5, defaultWorkers: 7, responseTimeoutMs: 9000 });
    expect(sources.sourceOf('jobQueueSize')).toBe('config.properties');
  });

  test("token-auth's entry is merged into the plugins sluice.yaml configures", async () => {
    await writeConfigFile(dir, 'plugins:\n  - { name: jwt-auth, enabled: false }\n  - { name: token-auth, config: { apiKeyExpirationMinutes: 5, expirationMinutes: 10 } }\n');
    await writeConfigFile(dir, 'token_expiration_min=30\n', 'config.properties');
    expect(load().config.plugins).toEqual([
      { name: 'jwt-auth', enabled: false, from: dir },
      { name: 'token-auth', from: dir, config: { apiKeyExpirationMinutes: 5, expirationMinutes: 30, keyFile: join(dir, 'key_file.json'), keyFileLayout: 'torchserve' } },
    ]);
  });

  test("the models JSON reaches modelSettings, and the warning is handed back", async () => {
    await writeConfigFile(dir, 'models={"iris": {"1.0": {"batchSize": 4, "maxBatchDelay": 20}}}\nvmargs=-Xmx1g\n', 'config.properties');
    const { config, warnings } = load();
    expect(config.modelSettings).toEqual({ iris: { '1.0': { batchSize: 4, maxBatchDelayMs: 20 } } });
    expect(warnings).toEqual([expect.stringContaining('vmargs (Sluice runs on Node.js, not a JVM)')]);
  });

  test('a value Sluice refuses is named with the file', async () => {
    await writeConfigFile(dir, 'max_request_size=10\n', 'config.properties');
    expect(configErrorMessage(() => load())).toContain('config.properties: line 1: `max_request_size` must be an integer from 1024');
  });

  test('a mapped value out of Sluice limits is refused by the schema, naming the file', async () => {
    await writeConfigFile(dir, 'models={"iris": {"1.0": {"batchSize": 0}}}\n', 'config.properties');
    expect(configErrorMessage(() => load())).toMatch(/^config\.properties: `modelSettings\.iris\.1\.0\.batchSize` must be >= 1/);
  });

  test('without --ts-config nothing is read and there are no warnings', async () => {
    await writeConfigFile(dir, 'bogus_key=1\n', 'config.properties');
    expect(loadConfigWithSources({ cwd: dir, env: {} }).warnings).toEqual([]);
  });
});
