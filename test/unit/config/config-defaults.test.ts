import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { load as loadYaml } from 'js-yaml';
import { LOG_FORMATS, LOG_LEVELS } from '../../../src/sdk/logging/logger.js';
import { packageRoot } from '../../../src/package-files/package-root.js';
import {
  DEFAULT_CONFIG,
  listConfigKeys,
  loadConfig,
  type SluiceConfig,
} from '../../../src/config/index.js';
import { configSchema } from '../../../src/config/config-schema-keys.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { load } from './config-test-support.js';

function resolvedDefaults(dir: string): SluiceConfig {
  return {
    ...DEFAULT_CONFIG,
    modelStore: join(dir, 'model-store'),
    workflowStore: join(dir, 'workflows'),
    snapshot: { ...DEFAULT_CONFIG.snapshot, file: join(dir, '.sluice', 'snapshot.json') },
  };
}

function schemaDefaults(): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const info of listConfigKeys()) {
    if (info.kind !== 'value') continue;
    let node = root;
    for (const part of info.path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[info.path.at(-1)!] = info.schema.default;
  }
  return root;
}

describe('defaults', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  test('without a file, variables or flags every key has its default, paths resolved against cwd', () => {
    expect(load(dir)).toEqual(resolvedDefaults(dir));
  });

  test('the schema documents the same defaults as DEFAULT_CONFIG', () => {
    expect(schemaDefaults()).toEqual(DEFAULT_CONFIG);
  });

  test('the repository sluice.yaml sets every key to its default', () => {
    expect(loadYaml(readFileSync(join(packageRoot(), 'sluice.yaml'), 'utf8'))).toEqual(DEFAULT_CONFIG);
  });

  test('loading the repository sluice.yaml gives the defaults resolved against the repository root', () => {
    const root = packageRoot();
    expect(loadConfig({ configFile: 'sluice.yaml', cwd: root, env: {} })).toEqual(resolvedDefaults(root));
  });

  test('the schema allows exactly the log levels of the logger', () => {
    const logLevel = listConfigKeys().find((info) => info.key === 'logLevel');
    expect(logLevel?.schema.enum).toEqual([...LOG_LEVELS]);
  });

  test('the schema allows exactly the log formats of the logger', () => {
    const logFormat = listConfigKeys().find((info) => info.key === 'logFormat');
    expect(logFormat?.schema.enum).toEqual([...LOG_FORMATS]);
  });

  test('every schema key has a description', () => {
    const undescribed = listConfigKeys().filter((info) => info.description.trim() === '');
    expect(undescribed.map((info) => info.key)).toEqual([]);
  });

  test('every schema section rejects unknown keys', () => {
    const open = listConfigKeys()
      .filter((info) => info.kind === 'section')
      .filter((info) => info.schema.additionalProperties !== false)
      .map((info) => info.key);
    if (configSchema().additionalProperties !== false) open.push('(top level)');
    expect(open).toEqual([]);
  });

  test('DEFAULT_CONFIG cannot be modified', () => {
    expect(Object.isFrozen(DEFAULT_CONFIG.inference)).toBe(true);
    expect(Object.isFrozen(DEFAULT_CONFIG.runtime.executionProviders)).toBe(true);
  });
});
