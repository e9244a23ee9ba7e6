import { describe, expect, it } from '@jest/globals';
import { load } from 'js-yaml';
import { convertTorchServeSpec } from '../../../../src/workflow/serving/torchserve/torchserve-conversion.js';
import { readTorchServeSpec } from '../../../../src/workflow/serving/torchserve/torchserve-spec.js';

/** A spec without models whose `dag:` is `dag`. */
function spec(dag: Readonly<Record<string, readonly string[]>>): unknown {
  return { models: {}, dag };
}

describe('readTorchServeSpec', () => {
  /*
   *           ┌──▶ left ──┐
   *   start ──┤           ├──▶ join
   *           └──▶ right ─┘
   */
  it('gives each node its parents, in the order of the dag', () => {
    const read = readTorchServeSpec(spec({ start: ['left', 'right'], right: ['join'], left: ['join'] }), 'diamond.yaml');
    expect([...read.parents]).toEqual([
      ['start', []],
      ['left', ['start']],
      ['right', ['start']],
      ['join', ['right', 'left']],
    ]);
  });

  /*
   *   start ──▶ n0, n1, … n999        1001 nodes, one more than a workflow may have
   */
  it('refuses a dag of more than 1000 nodes with SLUICE_WORKFLOW_INVALID', () => {
    const wide = spec({ start: Array.from({ length: 1000 }, (_, i) => `n${i}`) });
    expect(() => readTorchServeSpec(wide, 'wide.yaml')).toThrow(
      expect.objectContaining({ code: 'SLUICE_WORKFLOW_INVALID', message: 'wide.yaml: the dag has more than 1000 nodes; a workflow has at most 1000' }),
    );
  });

  it.each([
    ['min-workers of every model', { 'min-workers': 100_000, m: { url: 'iris' } }, 'models.min-workers', 100_000],
    ['max-workers of one model', { m: { url: 'iris', 'max-workers': 257 } }, 'models.m.max-workers', 257],
  ])('refuses %s above 256 with SLUICE_WORKFLOW_INVALID, before any model is registered', (_case, models, key, count) => {
    expect(() => readTorchServeSpec({ models, dag: { m: [] } }, 'busy.yaml')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_WORKFLOW_INVALID',
        message: `busy.yaml: \`${key}\` (${count}) is more than the 256 workers a model may have; give at most 256`,
      }),
    );
  });

  it.each([
    ['batch-size of every model above 4096', { 'batch-size': 4097, m: { url: 'iris' } }, '`models.batch-size` must be an integer between 1 and 4096, got 4097'],
    ['batch-size 0 of one model', { m: { url: 'iris', 'batch-size': 0 } }, '`models.m.batch-size` must be an integer between 1 and 4096, got 0'],
    ['max-batch-delay of every model above one hour', { 'max-batch-delay': 3_600_001, m: { url: 'iris' } }, '`models.max-batch-delay` must be between 0 and 3600000 milliseconds, got 3600001'],
    ['max-batch-delay of one model above one hour', { m: { url: 'iris', 'max-batch-delay': 3_600_001 } }, '`models.m.max-batch-delay` must be between 0 and 3600000 milliseconds, got 3600001'],
  ])('refuses %s with SLUICE_WORKFLOW_INVALID, before any model is registered', (_case, models, problem) => {
    expect(() => readTorchServeSpec({ models, dag: { m: [] } }, 'batched.yaml')).toThrow(
      expect.objectContaining({ code: 'SLUICE_WORKFLOW_INVALID', message: `batched.yaml: ${problem}` }),
    );
  });

  it('takes a batch-size of 4096 and a max-batch-delay of one hour, the most model.yaml allows', () => {
    expect(readTorchServeSpec({ models: { m: { url: 'iris', 'batch-size': 4096, 'max-batch-delay': 3_600_000 } }, dag: { m: [] } }, 'full.yaml').models).toEqual([
      { node: 'm', url: 'iris', batchSize: 4096, maxBatchDelayMs: 3_600_000 },
    ]);
  });

  it('takes 256 workers, the most a model may have', () => {
    expect(readTorchServeSpec({ models: { m: { url: 'iris', 'min-workers': 256, 'max-workers': 256 } }, dag: { m: [] } }, 'full.yaml').models).toEqual([
      { node: 'm', url: 'iris', minWorkers: 256, maxWorkers: 256 },
    ]);
  });

  /*
   *   n0 ──▶ n1 ──▶ … ──▶ n20000        too long to walk node by node on the stack
   */
  it('refuses a chain of 20 000 nodes as too large, not with an internal error', () => {
    const chain = spec(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`n${i}`, [`n${i + 1}`]])));
    expect(() => readTorchServeSpec(chain, 'chain.yaml')).toThrow(
      expect.objectContaining({ code: 'SLUICE_WORKFLOW_INVALID', message: 'chain.yaml: the dag has more than 1000 nodes; a workflow has at most 1000' }),
    );
  });

  /*
   *           ┌──▶ constructor
   *   start ──┤                        names every object has are node names too
   *           └──▶ __proto__
   */
  it('reads nodes named `constructor` and `__proto__` like any other', () => {
    const read = readTorchServeSpec(spec(JSON.parse('{"start": ["constructor", "__proto__"]}') as Record<string, string[]>), 'names.yaml');
    expect([...read.parents]).toEqual([
      ['start', []],
      ['constructor', ['start']],
      ['__proto__', ['start']],
    ]);
  });

  it('makes leaves named `constructor` and `__proto__` outputs of the converted workflow', () => {
    const read = readTorchServeSpec(spec(JSON.parse('{"start": ["constructor", "__proto__"]}') as Record<string, string[]>), 'names.yaml');
    const converted = load(convertTorchServeSpec(read, 'names', '1')) as { nodes: object; outputs: object };
    expect([Object.keys(converted.nodes), Object.keys(converted.outputs)]).toEqual([
      ['start', 'constructor', '__proto__'],
      ['constructor', '__proto__'],
    ]);
  });
});
