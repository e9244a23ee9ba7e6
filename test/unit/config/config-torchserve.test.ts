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

  test('without load_models a --ts-config start loads no model, as TorchServe', async () => {
    await writeConfigFile(dir, 'job_queue_size=5\n', 'config.properties');
    expect(load().config.models).toEqual([]);
  });

  test("load_models=all loads the whole store, and a list the archives it names", async () => {
    await writeConfigFile(dir, 'load_models=all\n', 'config.properties');
    expect(load().config.models).toBe('all');
    await writeConfigFile(dir, 'load_models=iris.mar,mlp\n', 'config.properties');
    expect(load().config.models).toEqual(['iris.mar', 'mlp']);
  });

  test("without load_models, sluice.yaml's models, SLUICE_MODELS and --models still choose", async () => {
    await writeConfigFile(dir, 'models: [iris]\n');
    await writeConfigFile(dir, 'job_queue_size=5\n', 'config.properties');
    expect(load().config.models).toEqual(['iris']);
    expect(load({ SLUICE_MODELS: 'all' }).config.models).toBe('all');
    expect(load({}, { models: ['mlp'] }).config.models).toEqual(['mlp']);
  });

  test("without --ts-config Sluice's own default loads the whole store", () => {
    expect(loadConfigWithSources({ cwd: dir, env: {} }).config.models).toBe('all');
  });

  test('without enable_model_api a --ts-config start turns the model API off, as TorchServe', async () => {
    await writeConfigFile(dir, 'job_queue_size=5\n', 'config.properties');
    expect(load().config.modelApi).toBe(false);
    await writeConfigFile(dir, 'enable_model_api=true\n', 'config.properties');
    expect(load().config.modelApi).toBe(true);
  });

  test('sluice.yaml, SLUICE_MODEL_API and the file itself can turn the model API on or off', async () => {
    await writeConfigFile(dir, 'modelApi: true\n');
    await writeConfigFile(dir, 'job_queue_size=5\n', 'config.properties');
    expect(load().config.modelApi).toBe(true);
    expect(load({ SLUICE_MODEL_API: 'false' }).config.modelApi).toBe(false);
    await writeConfigFile(dir, 'enable_model_api=false\n', 'config.properties');
    expect(load().config.modelApi).toBe(false);
  });

  test('without --ts-config the model API is on, as Sluice has it by default', () => {
    expect(loadConfigWithSources({ cwd: dir, env: {} }).config.modelApi).toBe(true);
  });

  test('without --ts-config nothing is read and there are no warnings', async () => {
    await writeConfigFile(dir, 'bogus_key=1\n', 'config.properties');
    expect(loadConfigWithSources({ cwd: dir, env: {} }).warnings).toEqual([]);
  });
});
