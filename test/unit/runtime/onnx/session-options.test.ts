import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type GraphOptimizationLevel, type IntraOpSpinning } from '../../../../src/runtime/model-runtime.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/onnx-runtime.js';
import { toOrtSessionOptions } from '../../../../src/runtime/onnx/session-options.js';
import { writeAddModel } from '../../../support/onnx-models.js';
import { makeTempDir } from '../../../support/temp-dir.js';

describe('toOrtSessionOptions', () => {
  it('fills in the documented defaults when nothing is set', () => {
    expect(toOrtSessionOptions({}, 'cpu')).toEqual({
      intraOpNumThreads: 0,
      interOpNumThreads: 0,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      executionProviders: ['cpu'],
      logSeverityLevel: 3,
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
    const ort = toOrtSessionOptions(
      { intraOpNumThreads: 2, interOpNumThreads: 3, executionMode: 'parallel', graphOptimizationLevel: 'basic' },
      'cpu',
    );
    expect(ort).toMatchObject({ intraOpNumThreads: 2, interOpNumThreads: 3, executionMode: 'parallel', graphOptimizationLevel: 'basic' });
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
    const model = await runtime.load(modelPath, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel });
    try {
      const [sum] = await model.run([
        { name: 'a', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 2, 3]) },
        { name: 'b', datatype: 'FP32', shape: [1, 3], data: new Float32Array([10, 20, 30]) },
      ]);
      expect(sum?.data).toEqual(new Float32Array([11, 22, 33]));
    } finally {
      await model.release();
    }
  });

  const spinnings: IntraOpSpinning[] = ['during-run', 'always', 'never'];

  it.each(spinnings)('loads and runs on two intra-op threads with spinning %s', async (intraOpSpinning) => {
    const model = await runtime.load(modelPath, { intraOpNumThreads: 2, intraOpSpinning });
    try {
      const [sum] = await model.run([
        { name: 'a', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 2, 3]) },
        { name: 'b', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 1, 1]) },
      ]);
      expect(sum?.data).toEqual(new Float32Array([2, 3, 4]));
    } finally {
      await model.release();
    }
  });

  it('loads and runs in parallel execution mode', async () => {
    const model = await runtime.load(modelPath, { executionMode: 'parallel', interOpNumThreads: 2 });
    try {
      const [sum] = await model.run([
        { name: 'a', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 1, 1]) },
        { name: 'b', datatype: 'FP32', shape: [1, 3], data: new Float32Array([2, 2, 2]) },
      ]);
      expect(sum?.data).toEqual(new Float32Array([3, 3, 3]));
    } finally {
      await model.release();
    }
  });
});
