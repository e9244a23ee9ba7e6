import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type GraphOptimizationLevel, type IntraOpSpinning } from '../../../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/onnx-runtime.js';
import { physicalCoresAvailable } from '../../../../src/runtime/onnx/physical-cores.js';
import { cappedThreads, intraOpThreads, toOrtSessionOptions } from '../../../../src/runtime/onnx/session-options.js';
import { addOnce } from '../../../support/add-model-run.js';
import { writeAddModel } from '../../../support/onnx-models.js';
import { makeTempDir } from '../../../support/temp-dir.js';

describe('toOrtSessionOptions', () => {
  it('fills in the documented defaults when nothing is set', () => {
    expect(toOrtSessionOptions({}, 'cpu')).toEqual({
      intraOpNumThreads: physicalCoresAvailable() ?? 0,
      interOpNumThreads: 0,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      executionProviders: ['cpu'],
      logSeverityLevel: 4,
      extra: { session: { force_spinning_stop: '1' } },
    });
  });

  it('lets intra-op threads spin between runs only when asked to (always)', () => {
    expect(toOrtSessionOptions({ intraOpSpinning: 'always' }, 'cpu').extra).toEqual({});
  });

  it('turns intra-op spinning off altogether for never', () => {
    expect(toOrtSessionOptions({ intraOpSpinning: 'never' }, 'cpu').extra).toEqual({ session: { intra_op: { allow_spinning: '0' } } });
  });

  it('passes thread counts, execution mode and optimisation level through', () => {
    const cpus = availableParallelism();
    const ort = toOrtSessionOptions(
      { intraOpNumThreads: 1, interOpNumThreads: cpus, executionMode: 'parallel', graphOptimizationLevel: 'basic' },
      'cpu',
    );
    expect(ort).toMatchObject({ intraOpNumThreads: 1, interOpNumThreads: cpus, executionMode: 'parallel', graphOptimizationLevel: 'basic' });
  });

  it('lowers thread counts beyond the CPUs the process may use to that number', () => {
    const ort = toOrtSessionOptions({ intraOpNumThreads: 100_000, interOpNumThreads: 1e12 }, 'cpu');
    expect([ort.intraOpNumThreads, ort.interOpNumThreads]).toEqual([availableParallelism(), availableParallelism()]);
  });

  it('caps a thread count at the CPUs, and leaves 0 to ONNX Runtime', () => {
    expect([cappedThreads(500, 2), cappedThreads(2, 8), cappedThreads(0, 8)]).toEqual([2, 2, 0]);
  });

  it('gives 0 intra-op threads one per physical core', () => {
    expect(intraOpThreads(0, 6)).toBe(6);
  });

  it('leaves 0 intra-op threads to ONNX Runtime when the cores cannot be counted', () => {
    expect(intraOpThreads(0, undefined)).toBe(0);
  });

  it('keeps an explicit intra-op thread count whatever the cores', () => {
    expect(intraOpThreads(3, 6)).toBe(3);
  });

  it('names exactly the one provider being tried, ignoring the preference list', () => {
    expect(toOrtSessionOptions({ executionProviders: ['webgpu', 'cpu'] }, 'webgpu').executionProviders).toEqual(['webgpu']);
  });

  it('gives the CUDA provider the configured device id', () => {
    expect(toOrtSessionOptions({ deviceId: 3 }, 'cuda').executionProviders).toEqual([{ name: 'cuda', deviceId: 3 }]);
  });
});

describe('real sessions with explicit options', () => {
  const runtime = new OnnxRuntime();
  let modelPath: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    let dir: string;
    ({ dir, cleanup } = await makeTempDir());
    modelPath = await writeAddModel(dir);
  });

  afterAll(async () => {
    await cleanup();
  });

  const levels: GraphOptimizationLevel[] = ['disabled', 'basic', 'extended', 'all'];

  it.each(levels)('loads and runs with one thread and optimisation level %s', async (graphOptimizationLevel) => {
    const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel };
    expect(await addOnce(runtime, modelPath, options, [1, 2, 3], [10, 20, 30])).toEqual(new Float32Array([11, 22, 33]));
  });

  const spinnings: IntraOpSpinning[] = ['during-run', 'always', 'never'];

  it.each(spinnings)('loads and runs on two intra-op threads with spinning %s', async (intraOpSpinning) => {
    expect(await addOnce(runtime, modelPath, { intraOpNumThreads: 2, intraOpSpinning }, [1, 2, 3], [1, 1, 1])).toEqual(new Float32Array([2, 3, 4]));
  });

  it('loads and runs with thread counts far beyond the CPUs', async () => {
    const options = { intraOpNumThreads: 2 ** 31 - 1, interOpNumThreads: 2 ** 31 - 1, executionMode: 'parallel' } as const;
    expect(await addOnce(runtime, modelPath, options, [1, 2, 3], [1, 1, 1])).toEqual(new Float32Array([2, 3, 4]));
  });

  it('loads and runs in parallel execution mode', async () => {
    expect(await addOnce(runtime, modelPath, { executionMode: 'parallel', interOpNumThreads: 2 }, [1, 1, 1], [2, 2, 2])).toEqual(new Float32Array([3, 3, 3]));
  });
});
