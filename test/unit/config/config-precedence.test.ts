import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { DEFAULT_CONFIG, type ConfigLayer } from '../../../src/config/index.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { configErrorMessage, load, writeConfigFile } from './config-test-support.js';

describe('precedence and overrides', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  test('a variable beats the file', async () => {
    await writeConfigFile(dir, 'jobQueueSize: 5\n');
    expect(load(dir, { env: { SLUICE_JOB_QUEUE_SIZE: '6' } }).jobQueueSize).toBe(6);
  });

  test('an override beats a variable and the file', async () => {
    await writeConfigFile(dir, 'jobQueueSize: 5\n');
    const config = load(dir, { env: { SLUICE_JOB_QUEUE_SIZE: '6' }, overrides: { jobQueueSize: 7 } });
    expect(config.jobQueueSize).toBe(7);
  });

  test('each source keeps the keys of a section that a higher one does not set', async () => {
    await writeConfigFile(dir, 'inference:\n  host: 0.0.0.0\n');
    const config = load(dir, { env: { SLUICE_INFERENCE_PORT: '9000' } });
    expect(config.inference).toEqual({ host: '0.0.0.0', port: 9000 });
  });

  test('a list from a higher source replaces the lower one', async () => {
    await writeConfigFile(dir, 'runtime:\n  executionProviders: [cuda, cpu]\n');
    const config = load(dir, { overrides: { runtime: { executionProviders: ['webgpu'] } } });
    expect(config.runtime.executionProviders).toEqual(['webgpu']);
  });

  test('undefined overrides are ignored', async () => {
    await writeConfigFile(dir, 'inference:\n  port: 9000\n');
    const config = load(dir, { overrides: { inference: { port: undefined }, logLevel: undefined } });
    expect([config.inference.port, config.logLevel]).toEqual([9000, DEFAULT_CONFIG.logLevel]);
  });

  test('a relative path from an override resolves against cwd', async () => {
    await writeConfigFile(dir, 'modelStore: /srv/models\n');
    expect(load(dir, { overrides: { modelStore: 'here' } }).modelStore).toBe(join(dir, 'here'));
  });

  test('a bad override is an error naming the flags and the key', () => {
    expect(configErrorMessage(() => load(dir, { overrides: { metrics: { port: 65536 } } }))).toBe(
      'command-line flags: `metrics.port` must be <= 65535 (got 65536)',
    );
  });

  test('an unknown override key is an error naming it', () => {
    const overrides = { runtime: { threads: 4 } } as unknown as ConfigLayer;
    expect(configErrorMessage(() => load(dir, { overrides }))).toBe(
      'command-line flags: `runtime.threads` is not a known key (allowed here: intraOpNumThreads, intraOpSpinning, ' +
        'interOpNumThreads, executionMode, graphOptimizationLevel, executionProviders, sessionThread)',
    );
  });

  test('loading does not change DEFAULT_CONFIG', () => {
    load(dir, { overrides: { inference: { port: 1 }, models: ['a'] } });
    expect([DEFAULT_CONFIG.inference.port, DEFAULT_CONFIG.models]).toEqual([8080, 'all']);
  });
});
