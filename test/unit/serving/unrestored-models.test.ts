import { describe, expect, it } from '@jest/globals';
import type { SnapshotModel } from '../../../src/model-store/index.js';
import { UnrestoredModels } from '../../../src/serving/unrestored-models.js';

const LOAD_ERROR = 'cannot read model.onnx';

function entry(name: string, version: string, isDefault: boolean): SnapshotModel {
  return { name, version, url: name, isDefault, minWorkers: 1, maxWorkers: 1, batchSize: 1, maxBatchDelayMs: 0 };
}

function defaults(kept: UnrestoredModels, loadedDefaults: Readonly<Record<string, string>> = {}): string[] {
  return kept
    .forSnapshot((name) => loadedDefaults[name])
    .filter((e) => e.isDefault)
    .map((e) => `${e.name}@${e.version}`);
}

describe('UnrestoredModels', () => {
  it('gives the kept entries back as they were', () => {
    const kept = new UnrestoredModels();
    kept.keep({ ...entry('iris', '1.0', true), minWorkers: 3, batchSize: 4, storePath: 'iris' }, LOAD_ERROR);
    expect(kept.forSnapshot(() => undefined)).toEqual([{ ...entry('iris', '1.0', true), minWorkers: 3, batchSize: 4, storePath: 'iris' }]);
  });

  it('lists each kept entry with the error it failed to load with', () => {
    const kept = new UnrestoredModels();
    kept.keep(entry('iris', '1.0', true), 'cannot read iris/model.onnx');
    kept.keep(entry('mlp', '1.0', true), 'download failed');
    expect(kept.list(() => undefined)).toEqual([
      { entry: entry('iris', '1.0', true), loadError: 'cannot read iris/model.onnx' },
      { entry: entry('mlp', '1.0', true), loadError: 'download failed' },
    ]);
  });

  it('makes no kept entry a default of a model whose default is loaded', () => {
    const kept = new UnrestoredModels();
    kept.keep(entry('iris', '2.0', true), LOAD_ERROR);
    expect(defaults(kept, { iris: '1.0' })).toEqual([]);
  });

  it('keeps the default of a model that is only kept', () => {
    const kept = new UnrestoredModels();
    kept.keep(entry('iris', '1.0', true), LOAD_ERROR);
    kept.keep(entry('iris', '2.0', false), LOAD_ERROR);
    expect(defaults(kept)).toEqual(['iris@1.0']);
  });

  it('makes the highest kept version the default when the default was unregistered', () => {
    const kept = new UnrestoredModels();
    for (const version of ['1.10', '1.9', '1.2']) kept.keep(entry('iris', version, version === '1.2'), LOAD_ERROR);
    kept.drop('iris', '1.2');
    expect(defaults(kept)).toEqual(['iris@1.10']);
  });

  it('drops one version, answering it', () => {
    const kept = new UnrestoredModels();
    kept.keep(entry('iris', '1.0', true), LOAD_ERROR);
    kept.keep(entry('iris', '2.0', false), LOAD_ERROR);
    expect(kept.drop('iris', '2.0')).toEqual(['2.0']);
    expect(kept.has('iris', '2.0')).toBe(false);
    expect(kept.has('iris', '1.0')).toBe(true);
  });

  it('drops every version of a model, leaving other models', () => {
    const kept = new UnrestoredModels();
    kept.keep(entry('iris', '1.0', true), LOAD_ERROR);
    kept.keep(entry('iris', '2.0', false), LOAD_ERROR);
    kept.keep(entry('mlp', '1.0', true), LOAD_ERROR);
    expect(kept.drop('iris')).toEqual(['1.0', '2.0']);
    expect(kept.forSnapshot(() => undefined).map((e) => e.name)).toEqual(['mlp']);
  });
});
