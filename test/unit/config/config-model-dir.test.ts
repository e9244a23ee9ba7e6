import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeTempDir } from '../../support/temp-dir.js';
import { configErrorMessage, load, writeConfigFile } from './config-test-support.js';

describe('modelDir and modelName', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('are empty by default: no model directory', () => {
    expect(load(dir)).toMatchObject({ modelDir: '', modelName: '' });
  });

  it('resolve modelDir against the config file’s directory, as modelStore', async () => {
    const file = await writeConfigFile(dir, 'modelDir: ./mnt/models\nmodelName: digits\n');
    expect(load('/', { configFile: file })).toMatchObject({ modelDir: join(dir, 'mnt', 'models'), modelName: 'digits' });
  });

  it('are read from SLUICE_MODEL_DIR and SLUICE_MODEL_NAME', () => {
    expect(load(dir, { env: { SLUICE_MODEL_DIR: '/mnt/models', SLUICE_MODEL_NAME: 'digits' } })).toMatchObject({ modelDir: '/mnt/models', modelName: 'digits' });
  });

  it('refuses a model name no model may have, naming the variable and the key', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_MODEL_DIR: '/mnt/models', SLUICE_MODEL_NAME: '../etc' } }))).toMatch(/^SLUICE_MODEL_NAME: `modelName` must match pattern/);
  });

  it('refuses modelDir without modelName, naming where modelDir was set', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_MODEL_DIR: '/mnt/models' } }))).toBe(
      'SLUICE_MODEL_DIR: `modelDir` is set but `modelName` is not; they go together: `modelDir` the model directory, `modelName` the name it is served under (or neither)',
    );
  });

  it('refuses modelName without modelDir, naming where modelName was set', async () => {
    const file = await writeConfigFile(dir, 'modelName: digits\n');
    expect(configErrorMessage(() => load(dir, { configFile: file }))).toBe(
      'sluice.yaml: `modelName` is set but `modelDir` is not; they go together: `modelDir` the model directory, `modelName` the name it is served under (or neither)',
    );
  });
});
