import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { configEnvVariableName, listConfigEnvVariables, listConfigKeys } from '../../../src/config/index.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { configErrorMessage, load, writeConfigFile } from './config-test-support.js';

describe('environment variables', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  test('names are SLUICE_ and the key path in SCREAMING_SNAKE_CASE', () => {
    expect(
      [['inference', 'port'], ['jobQueueSize'], ['snapshot', 'enabled'], ['runtime', 'intraOpNumThreads']].map(
        configEnvVariableName,
      ),
    ).toEqual([
      'SLUICE_INFERENCE_PORT',
      'SLUICE_JOB_QUEUE_SIZE',
      'SLUICE_SNAPSHOT_ENABLED',
      'SLUICE_RUNTIME_INTRA_OP_NUM_THREADS',
    ]);
  });

  test('every value key has exactly one variable, and no two keys share one', () => {
    const variables = listConfigEnvVariables();
    const valueKeys = listConfigKeys().filter((info) => info.kind === 'value');
    expect(variables.map((variable) => variable.key)).toEqual(valueKeys.map((info) => info.key));
    expect(new Set(variables.map((variable) => variable.name)).size).toBe(variables.length);
  });

  test('the listing carries each key and its description and default', () => {
    expect(listConfigEnvVariables().find((variable) => variable.name === 'SLUICE_JOB_QUEUE_SIZE')).toEqual({
      name: 'SLUICE_JOB_QUEUE_SIZE',
      key: 'jobQueueSize',
      description: "Requests that may wait per model version before new ones are refused with 503. At most 1000000, as a manifest's jobQueueSize and the job_queue_size a registration may give.",
      default: 100,
    });
  });

  test('an integer variable sets its key', () => {
    expect(load(dir, { env: { SLUICE_INFERENCE_PORT: '9000' } }).inference.port).toBe(9000);
  });

  test('a string variable sets its key', () => {
    expect(load(dir, { env: { SLUICE_RUNTIME_EXECUTION_MODE: 'parallel' } }).runtime.executionMode).toBe('parallel');
  });

  test.each([
    ['false', false],
    ['FALSE', false],
    ['0', false],
    ['true', true],
    ['1', true],
  ])('a boolean variable accepts %s', (raw, expected) => {
    const config = load(dir, { env: { SLUICE_SNAPSHOT_ENABLED: raw } });
    expect(config.snapshot.enabled).toBe(expected);
  });

  test('a list variable starting with [ is read as JSON', () => {
    const env = { SLUICE_ALLOWED_URLS: '["^https://a\\\\.com/x{1,3}", "^s3://b/"]' };
    expect(load(dir, { env }).allowedUrls).toEqual(['^https://a\\.com/x{1,3}', '^s3://b/']);
  });

  test('a list variable not starting with [ is read as comma-separated items', () => {
    const env = { SLUICE_RUNTIME_EXECUTION_PROVIDERS: 'cuda, cpu' };
    expect(load(dir, { env }).runtime.executionProviders).toEqual(['cuda', 'cpu']);
  });

  test('an empty list variable is the empty list', async () => {
    await writeConfigFile(dir, 'allowedUrls: ["^https://a/"]\n');
    expect(load(dir, { env: { SLUICE_ALLOWED_URLS: '' } }).allowedUrls).toEqual([]);
  });

  test('SLUICE_MODELS=all selects every model', async () => {
    await writeConfigFile(dir, 'models: [a]\n');
    expect(load(dir, { env: { SLUICE_MODELS: 'all' } }).models).toBe('all');
  });

  test('SLUICE_MODELS with names selects those models', () => {
    expect(load(dir, { env: { SLUICE_MODELS: 'resnet18,bert' } }).models).toEqual(['resnet18', 'bert']);
  });

  test('a relative path from a variable resolves against cwd', () => {
    expect(load(dir, { env: { SLUICE_MODEL_STORE: 'models' } }).modelStore).toBe(join(dir, 'models'));
  });

  test('variables without the SLUICE_ prefix are ignored', () => {
    expect(load(dir, { env: { PATH: '/bin', sluice_inference_port: '1' } }).inference.port).toBe(8080);
  });

  test('an integer variable with trailing text is an error naming the variable', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_JOB_QUEUE_SIZE: '12abc' } }))).toBe(
      'SLUICE_JOB_QUEUE_SIZE: `jobQueueSize` must be integer (got "12abc")',
    );
  });

  test('an integer variable beyond 2^53 - 1 is an error naming the variable, not a rounded value', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_ARCHIVE_MAX_ENTRY_BYTES: '9007199254740993' } }))).toBe(
      'SLUICE_ARCHIVE_MAX_ENTRY_BYTES: `archive.maxEntryBytes` must be an integer from -9007199254740991 to 9007199254740991 (got "9007199254740993")',
    );
  });

  test('an integer variable of 2^53 - 1 is taken as it is', () => {
    expect(load(dir, { env: { SLUICE_ARCHIVE_MAX_ENTRY_BYTES: '9007199254740991' } }).archive.maxEntryBytes).toBe(9007199254740991);
  });

  test('a number variable too large to be finite is an error naming the variable', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_TELEMETRY_SAMPLER_ARG: '1e400' } }))).toBe(
      'SLUICE_TELEMETRY_SAMPLER_ARG: `telemetry.samplerArg` must be a finite number (got "1e400")',
    );
  });

  test('a count beyond its maximum is an error naming the variable and the limit', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_DEFAULT_WORKERS: '1000000' } }))).toBe(
      'SLUICE_DEFAULT_WORKERS: `defaultWorkers` must be <= 256 (got 1000000)',
    );
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_JOB_QUEUE_SIZE: '1000001' } }))).toBe(
      'SLUICE_JOB_QUEUE_SIZE: `jobQueueSize` must be <= 1000000 (got 1000001)',
    );
  });

  test('a boolean variable with another word is an error naming the variable', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_SNAPSHOT_ENABLED: 'yes' } }))).toBe(
      'SLUICE_SNAPSHOT_ENABLED: `snapshot.enabled` must be true, false, 1 or 0 (got "yes")',
    );
  });

  test('a list variable with broken JSON is an error naming the variable', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_ALLOWED_URLS: '["a",' } }))).toMatch(
      /^SLUICE_ALLOWED_URLS: `allowedUrls` is not a valid JSON list \(.+\)$/,
    );
  });

  test('a value the schema rejects is an error naming the variable and the key', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_INFERENCE_PORT: '70000' } }))).toBe(
      'SLUICE_INFERENCE_PORT: `inference.port` must be <= 65535 (got 70000)',
    );
  });

  test('a timeout longer than a timer can wait is an error naming the variable and the limit', () => {
    // Node would run a longer timer after 1 ms: a drain, a plugin load or a metrics push would not wait at all.
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_SHUTDOWN_TIMEOUT_MS: '99999999999999' } }))).toBe(
      'SLUICE_SHUTDOWN_TIMEOUT_MS: `shutdownTimeoutMs` must be <= 2147483647 (got 99999999999999)',
    );
  });

  test('a metrics push interval longer than a timer can wait is an error naming the variable', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_TELEMETRY_METRIC_EXPORT_INTERVAL_MS: '2147483648' } }))).toBe(
      'SLUICE_TELEMETRY_METRIC_EXPORT_INTERVAL_MS: `telemetry.metricExportIntervalMs` must be <= 2147483647 (got 2147483648)',
    );
  });

  test('a bad pattern in SLUICE_ALLOWED_URLS is an error naming the variable and the pattern', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_ALLOWED_URLS: 'ok,[a-' } }))).toBe(
      'SLUICE_ALLOWED_URLS: `allowedUrls[1]` is not a valid regular expression: "[a-" (Unterminated character class)',
    );
  });

  test('an unknown SLUICE_ variable is an error naming it and listing the known ones', () => {
    const known = listConfigEnvVariables()
      .map((variable) => variable.name)
      .join(', ');
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_INFERENCE_PROT: '80' } }))).toBe(
      `SLUICE_INFERENCE_PROT: not a known configuration variable (known: ${known})`,
    );
  });

  test('SLUICE_LOG_FORMAT sets the log format', () => {
    expect(load(dir, { env: { SLUICE_LOG_FORMAT: 'json' } }).logFormat).toBe('json');
  });

  test('a SLUICE_LOG_FORMAT that is no format is an error naming the variable and the allowed ones', () => {
    expect(configErrorMessage(() => load(dir, { env: { SLUICE_LOG_FORMAT: 'text' } }))).toBe(
      'SLUICE_LOG_FORMAT: `logFormat` must be one of "auto", "json", "pretty" (got "text")',
    );
  });
});
