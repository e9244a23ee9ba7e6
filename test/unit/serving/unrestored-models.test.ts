import { describe, expect, it } from '@jest/globals';
import type { SnapshotModel } from '../../../src/model-store/index.js';
import { UnrestoredModels } from '../../../src/serving/unrestored-models.js';

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
    kept.keep({ ...entry('iris', '1.0', true), minWorkers: 3, batchSize: 4, storePath: 'iris' });
    expect(kept.forSnapshot(() => undefined)).toEqual([{ ...entry('iris', '1.0', true), minWorkers: 3, batchSize: 4, storePath: 'iris' }]);
  });

  it('makes no kept entry a default of a model whose default is loaded', () => {
    const kept = new UnrestoredModels();
    kept.keep(entry('iris', '2.0', true));
    expect(defaults(kept, { iris: '1.0' })).toEqual([]);
  });

  it('keeps the default of a model that is only kept', () => {
    const kept = new UnrestoredModels();
    kept.keep(entry('iris', '1.0', true));
    kept.keep(entry('iris', '2.0', false));
    expect(defaults(kept)).toEqual(['iris@1.0']);
  });

  it('makes the highest kept version the default when the default was unregistered', () => {
    const kept = new UnrestoredModels();
    for (const version of ['1.10', '1.9', '1.2']) kept.keep(entry('iris', version, version === '1.2'));
    kept.drop('iris', '1.2');
    expect(defaults(kept)).toEqual(['iris@1.10']);
  });

  it('drops one version, answering it', () => {
    const kept = new UnrestoredModels();
    kept.keep(entry('iris', '1.0', true));
    kept.keep(entry('iris', '2.0', false));
    expect(kept.drop('iris', '2.0')).toEqual(['2.0']);
    expect(kept.has('iris', '2.0')).toBe(false);
    expect(kept.has('iris', '1.0')).toBe(true);
  });

  it('drops every version of a model, leaving other models', () => {
    const kept = new UnrestoredModels();
    kept.keep(entry('iris', '1.0', true));
    kept.keep(entry('iris', '2.0', false));
    kept.keep(entry('mlp', '1.0', true));
    expect(kept.drop('iris')).toEqual(['1.0', '2.0']);
    expect(kept.forSnapshot(() => undefined).map((e) => e.name)).toEqual(['mlp']);
  });
});
