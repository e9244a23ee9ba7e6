import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { listConfigKeys } from '../../../src/config/index.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { configErrorMessage, load, writeConfigFile } from './config-test-support.js';

function keysEndingWith(suffix: string): { key: string; maximum: number | undefined }[] {
  return listConfigKeys()
    .filter((info) => info.kind === 'value' && info.key.endsWith(suffix))
    .map((info) => ({ key: info.key, maximum: (info.schema as { maximum?: number }).maximum }));
}

describe('sizes and thread counts in the configuration', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  test('every key in bytes has a maximum no larger than the largest exact integer', () => {
    const sizes = keysEndingWith('Bytes');
    expect(sizes.length).toBeGreaterThan(4);
    expect(sizes.filter((s) => s.maximum === undefined || s.maximum > Number.MAX_SAFE_INTEGER).map((s) => s.key)).toEqual([]);
  });

  test('every thread count has a maximum', () => {
    const threads = keysEndingWith('Threads');
    expect(threads.map((t) => t.key).sort()).toEqual(['runtime.interOpNumThreads', 'runtime.intraOpNumThreads']);
    expect(threads.map((t) => t.maximum)).toEqual([1024, 1024]);
  });

  test('a request size beyond what one buffer holds is an error naming the key and the limit', async () => {
    await writeConfigFile(dir, 'maxRequestSizeBytes: 4294967297\n');
    expect(configErrorMessage(() => load(dir))).toBe('sluice.yaml: `maxRequestSizeBytes` must be <= 4294967296 (got 4294967297)');
  });

  test('a gRPC message size beyond a 32-bit length prefix is an error', async () => {
    await writeConfigFile(dir, 'grpc:\n  maxReceiveMessageBytes: 4294967296\n');
    expect(configErrorMessage(() => load(dir))).toBe('sluice.yaml: `grpc.maxReceiveMessageBytes` must be <= 4294967295 (got 4294967296)');
  });

  test('an integer too large to be read exactly is refused, not rounded', async () => {
    await writeConfigFile(dir, 'archive:\n  maxTotalBytes: 9007199254740993\n');
    expect(configErrorMessage(() => load(dir))).toBe('sluice.yaml: `archive.maxTotalBytes` must be <= 9007199254740991 (got 9007199254740992)');
  });
});
