import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REGISTRATION_LIMITS } from '../../../src/api/models/registration-limits.js';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { MAX_WORKERS, workerCountOverLimit } from '../../../src/serving/worker-limit.js';

interface WorkersSchema {
  readonly properties: { readonly workers: { readonly properties: { readonly min: { readonly maximum: number }; readonly max: { readonly maximum: number } } } };
}

describe('MAX_WORKERS', () => {
  it('is the bound of model.yaml and of the management APIs', () => {
    const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'model.schema.json'), 'utf8')) as WorkersSchema;
    const { min, max } = schema.properties.workers.properties;
    expect([min.maximum, max.maximum, REGISTRATION_LIMITS.maxWorkers]).toEqual([MAX_WORKERS, MAX_WORKERS, MAX_WORKERS]);
  });
});

describe('workerCountOverLimit', () => {
  it('names the first count above the limit', () => {
    expect(workerCountOverLimit({ minWorkers: 2, maxWorkers: 100_000 })).toEqual({ key: 'maxWorkers', count: 100_000 });
  });

  it('finds nothing wrong with counts up to the limit, or none given', () => {
    expect(workerCountOverLimit({ minWorkers: 256, maxWorkers: undefined })).toBeUndefined();
  });
});
