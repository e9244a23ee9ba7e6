import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { DEFAULT_CONFIG } from '../../../src/config/index.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { configErrorMessage, load, writeConfigFile } from './config-test-support.js';

describe('config file', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  test('sluice.yaml in cwd is read when no file is named', async () => {
    await writeConfigFile(dir, 'jobQueueSize: 7\n');
    expect(load(dir).jobQueueSize).toBe(7);
  });

  test('a named file is read instead of sluice.yaml', async () => {
    await writeConfigFile(dir, 'jobQueueSize: 7\n');
    await writeConfigFile(dir, 'jobQueueSize: 9\n', 'other.yaml');
    expect(load(dir, { configFile: 'other.yaml' }).jobQueueSize).toBe(9);
  });

  test('a section set in part keeps the defaults of its other keys', async () => {
    await writeConfigFile(dir, 'inference:\n  port: 9000\n');
    expect(load(dir).inference).toEqual({ host: DEFAULT_CONFIG.inference.host, port: 9000 });
  });

  test('values of every kind are taken from the file', async () => {
    await writeConfigFile(
      dir,
      [
        'models: [resnet18, bert]',
        'snapshot:',
        '  enabled: false',
        'allowedUrls: ["^https://models\\\\.example\\\\.com/"]',
        'runtime:',
        '  executionMode: parallel',
        '  executionProviders: [cuda, cpu]',
        '',
      ].join('\n'),
    );
    const config = load(dir);
    expect([config.models, config.snapshot.enabled, config.allowedUrls, config.runtime]).toEqual([
      ['resnet18', 'bert'],
      false,
      ['^https://models\\.example\\.com/'],
      { ...DEFAULT_CONFIG.runtime, executionMode: 'parallel', executionProviders: ['cuda', 'cpu'] },
    ]);
  });

  test('an empty file sets nothing', async () => {
    await writeConfigFile(dir, '# nothing here yet\n');
    expect(load(dir).inference).toEqual(DEFAULT_CONFIG.inference);
  });

  test('relative paths in the file resolve against the file directory, not cwd', async () => {
    const confDir = join(dir, 'conf');
    await mkdir(confDir);
    await writeConfigFile(confDir, 'modelStore: ../models\nsnapshot:\n  file: state/snap.json\n');
    const config = load(dir, { configFile: 'conf/sluice.yaml' });
    expect([config.modelStore, config.snapshot.file]).toEqual([join(dir, 'models'), join(confDir, 'state', 'snap.json')]);
  });

  test('absolute paths in the file are kept', async () => {
    await writeConfigFile(dir, 'modelStore: /srv/models\n');
    expect(load(dir).modelStore).toBe('/srv/models');
  });

  test('a named file that does not exist is an error naming it', () => {
    expect(configErrorMessage(() => load(dir, { configFile: 'missing.yaml' }))).toBe(
      'missing.yaml: config file not found',
    );
  });

  test('a named file outside cwd is named by its absolute path', () => {
    expect(configErrorMessage(() => load(join(dir, 'sub'), { configFile: join(dir, 'missing.yaml') }))).toBe(
      `${join(dir, 'missing.yaml')}: config file not found`,
    );
  });

  test('a named path that is a directory is an error saying to name the file itself', async () => {
    await mkdir(join(dir, 'conf'));
    expect(configErrorMessage(() => load(dir, { configFile: 'conf' }))).toBe('conf: is a directory, not a config file; name the YAML file itself');
  });

  test('invalid YAML is an error with file:line:col', async () => {
    await writeConfigFile(dir, 'inference:\n  port: 8080\n   host: x\n');
    expect(configErrorMessage(() => load(dir))).toBe(
      'sluice.yaml:3:8: invalid YAML: bad indentation of a mapping entry',
    );
  });

  test('more than one YAML document is an error', async () => {
    await writeConfigFile(dir, 'jobQueueSize: 1\n---\njobQueueSize: 2\n');
    expect(configErrorMessage(() => load(dir))).toBe('sluice.yaml: holds 2 YAML documents; expected one');
  });

  test('a port out of range is an error naming the key and the limit', async () => {
    await writeConfigFile(dir, 'inference:\n  port: 70000\n');
    expect(configErrorMessage(() => load(dir))).toBe('sluice.yaml: `inference.port` must be <= 65535 (got 70000)');
  });

  test('an unknown top-level key is an error listing the allowed keys', async () => {
    await writeConfigFile(dir, 'jobQueue: 5\n');
    expect(configErrorMessage(() => load(dir))).toBe(
      'sluice.yaml: `jobQueue` is not a known key (allowed here: inference, management, metrics, auth, grpc, modelStore, ' +
        'models, modelApi, modelDir, modelName, modelSettings, workflowStore, workflows, plugins, pluginLoadTimeoutMs, defaultWorkers, jobQueueSize, maxRequestSizeBytes, responseTimeoutMs, requestReceiveTimeoutMs, allowedUrls, logLevel, logFormat, ' +
        'snapshot, shutdownTimeoutMs, drainDelayMs, startTimeoutMs, archive, download, runtime, telemetry)',
    );
  });

  test('an unknown nested key is an error listing the keys of its section', async () => {
    await writeConfigFile(dir, 'snapshot:\n  path: ./snap.json\n');
    expect(configErrorMessage(() => load(dir))).toBe(
      'sluice.yaml: `snapshot.path` is not a known key (allowed here: enabled, file)',
    );
  });

  test('a value of the wrong type is an error', async () => {
    await writeConfigFile(dir, 'jobQueueSize: many\n');
    expect(configErrorMessage(() => load(dir))).toBe('sluice.yaml: `jobQueueSize` must be integer (got "many")');
  });

  test('a value outside an enum is an error listing the allowed values', async () => {
    await writeConfigFile(dir, 'runtime:\n  graphOptimizationLevel: max\n');
    expect(configErrorMessage(() => load(dir))).toBe(
      'sluice.yaml: `runtime.graphOptimizationLevel` must be one of "disabled", "basic", "extended", "all" (got "max")',
    );
  });

  test('models as a string other than all is an error', async () => {
    await writeConfigFile(dir, 'models: resnet18\n');
    expect(configErrorMessage(() => load(dir))).toBe('sluice.yaml: `models` must be one of "all" (got "resnet18")');
  });

  test('an allowedUrls pattern that does not compile is an error naming it', async () => {
    await writeConfigFile(dir, 'allowedUrls: ["^https://ok/", "^https://(bad/"]\n');
    expect(configErrorMessage(() => load(dir))).toBe(
      'sluice.yaml: `allowedUrls[1]` is not a valid regular expression: "^https://(bad/" (Unterminated group)',
    );
  });

  test('every problem of a file is reported at once', async () => {
    await writeConfigFile(dir, 'inference:\n  port: -1\nlogLevel: loud\n');
    expect(configErrorMessage(() => load(dir))).toBe(
      'sluice.yaml: `inference.port` must be >= 0 (got -1); ' +
        '`logLevel` must be one of "debug", "info", "warn", "error", "silent" (got "loud")',
    );
  });

  test('a log format that is none of auto, json and pretty is an error naming the allowed ones', async () => {
    await writeConfigFile(dir, 'logFormat: fancy\n');
    expect(configErrorMessage(() => load(dir))).toBe('sluice.yaml: `logFormat` must be one of "auto", "json", "pretty" (got "fancy")');
  });

  test('reads the log format', async () => {
    await writeConfigFile(dir, 'logFormat: pretty\n');
    expect(load(dir).logFormat).toBe('pretty');
  });

  test('a file whose document is not a mapping is an error', async () => {
    await writeConfigFile(dir, '- inference\n');
    expect(configErrorMessage(() => load(dir))).toBe('sluice.yaml: `(top level)` must be object (got a list)');
  });
});
