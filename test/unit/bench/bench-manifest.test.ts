import { describe, expect, it } from '@jest/globals';
import { load } from 'js-yaml';
import { readManifestBatching, withBatching, withRuntimeOptions } from '../../../bench/bench-manifest.js';

const MANIFEST = `name: demo
version: "1.0"
model: model.onnx
batching: { maxBatchSize: 32, maxBatchDelayMs: 2, preferredBatchSizes: [1, 8, 32] }
workers: { min: 1, max: 2 }
`;

describe('withBatching', () => {
  it('replaces the batching and keeps every other key as it was', () => {
    const rewritten = load(withBatching(MANIFEST, { maxBatchSize: 64, maxBatchDelayMs: 0.5 }));
    expect(rewritten).toEqual({
      name: 'demo',
      version: '1.0',
      model: 'model.onnx',
      batching: { maxBatchSize: 64, maxBatchDelayMs: 0.5, preferredBatchSizes: [1, 8, 32] },
      workers: { min: 1, max: 2 },
    });
  });

  it('drops preferred batch sizes above the new maximum, and the key when none is left', () => {
    expect(readManifestBatching(withBatching(MANIFEST, { maxBatchSize: 8, maxBatchDelayMs: 0 })).preferredBatchSizes).toEqual([1, 8]);
    expect(load(withBatching(MANIFEST.replace('[1, 8, 32]', '[8, 32]'), { maxBatchSize: 1, maxBatchDelayMs: 0 }))).toMatchObject({
      batching: { maxBatchSize: 1, maxBatchDelayMs: 0 },
    });
    expect(readManifestBatching(withBatching(MANIFEST.replace('[1, 8, 32]', '[8, 32]'), { maxBatchSize: 1, maxBatchDelayMs: 0 }))).toEqual({
      maxBatchSize: 1,
      maxBatchDelayMs: 0,
    });
  });

  it('adds batching to a manifest without it', () => {
    const manifest = 'name: demo\nversion: "1"\nmodel: model.onnx\n';
    expect(readManifestBatching(withBatching(manifest, { maxBatchSize: 1, maxBatchDelayMs: 0 }))).toEqual({ maxBatchSize: 1, maxBatchDelayMs: 0 });
  });

  it('keeps a numeric-looking version a string', () => {
    expect(withBatching(MANIFEST, { maxBatchSize: 1, maxBatchDelayMs: 0 })).toMatch(/^version: '1\.0'$/m);
  });

  it('refuses a manifest that is not a mapping', () => {
    expect(() => withBatching('- a\n- b\n', { maxBatchSize: 1, maxBatchDelayMs: 0 })).toThrow(/not a mapping/);
  });
});

describe('readManifestBatching', () => {
  it('reads the batching keys and ignores values of the wrong type', () => {
    expect(readManifestBatching(MANIFEST)).toEqual({ maxBatchSize: 32, maxBatchDelayMs: 2, preferredBatchSizes: [1, 8, 32] });
    expect(readManifestBatching('batching: { maxBatchSize: "8", preferredBatchSizes: [4, x] }\n')).toEqual({ preferredBatchSizes: [4] });
  });

  it('is empty without a batching block', () => {
    expect(readManifestBatching('name: demo\n')).toEqual({});
  });
});

describe('withRuntimeOptions', () => {
  it('replaces the runtime options and keeps every other key as it was', () => {
    const manifest = `${MANIFEST}runtimeOptions: { intraOpSpinning: always }\n`;
    expect(load(withRuntimeOptions(manifest, { intraOpNumThreads: 1 }))).toEqual({
      name: 'demo',
      version: '1.0',
      model: 'model.onnx',
      batching: { maxBatchSize: 32, maxBatchDelayMs: 2, preferredBatchSizes: [1, 8, 32] },
      workers: { min: 1, max: 2 },
      runtimeOptions: { intraOpNumThreads: 1 },
    });
  });
});
