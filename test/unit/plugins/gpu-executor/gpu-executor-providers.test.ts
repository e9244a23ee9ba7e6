import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GpuExecutor } from '../../../../plugins/gpu-executor/index.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/index.js';
import { writeAddModel } from '../../../support/onnx-models.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { loadContext } from './support/load-context.js';

// Real ONNX Runtime on a machine without a GPU: the CUDA and WebGPU providers really fail to start (ORT
// prints their errors in red on stderr) and the CPU provider takes over.
describe('GpuExecutor execution providers', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let modelPath: string;

  beforeAll(async () => {
    dir = await makeTempDir();
    modelPath = await writeAddModel(dir.dir);
  });

  afterAll(() => dir.cleanup());

  it('falls back to cpu when webgpu and cuda cannot start', async () => {
    const model = await new GpuExecutor({ executionProviders: ['webgpu', 'cuda', 'cpu'] }).load(loadContext(modelPath, new OnnxRuntime()));
    expect(model.executionProvider).toBe('cpu');
    await model.release();
  });

  it('logs one warning naming why webgpu and then cuda were not used', async () => {
    const context = loadContext(modelPath, new OnnxRuntime());
    const model = await new GpuExecutor({ executionProviders: ['webgpu', 'cuda', 'cpu'] }).load(context);
    await model.createInstance(0);
    await model.createInstance(1);
    await model.release();
    const [line, ...more] = context.logger.lines;
    const notUsed = line?.fields.notUsed as Record<string, string>;
    expect({ more, level: line?.level, keys: Object.keys(notUsed) }).toEqual({ more: [], level: 'warn', keys: ['webgpu', 'cuda'] });
    expect(line?.message).toBe(`execution provider cpu on cpu; not used: webgpu: ${notUsed.webgpu}; cuda: ${notUsed.cuda}`);
  });

  it('reports the runtime’s own reasons for the providers not used', async () => {
    const context = loadContext(modelPath, new OnnxRuntime());
    await (await new GpuExecutor({ executionProviders: ['webgpu', 'cuda', 'cpu'] }).load(context)).release();
    expect(context.logger.lines[0]?.fields.notUsed).toEqual({
      webgpu: expect.stringContaining('WebGPU'),
      cuda: expect.stringContaining('Failed to load shared library'),
    });
  });

  it('takes the preference list from the session options when its options give none', async () => {
    const context = loadContext(modelPath, new OnnxRuntime(), { sessionOptions: { executionProviders: ['cuda', 'cpu'] } });
    await (await new GpuExecutor().load(context)).release();
    expect(context.logger.lines[0]?.fields.preference).toEqual(['cuda', 'cpu']);
  });

  it('prefers cuda, then webgpu, then cpu when nothing says otherwise', async () => {
    const context = loadContext(modelPath, new OnnxRuntime(), { sessionOptions: {} });
    await (await new GpuExecutor().load(context)).release();
    expect(context.logger.lines[0]?.fields.preference).toEqual(['cuda', 'webgpu', 'cpu']);
  });

  it('lets the model’s executor options win over the executor’s', async () => {
    const context = loadContext(modelPath, new OnnxRuntime(), { executorOptions: { executionProviders: ['cpu'] } });
    await (await new GpuExecutor({ executionProviders: ['webgpu', 'cpu'] }).load(context)).release();
    expect(context.logger.lines[0]?.message).toBe('execution provider cpu on cpu');
  });
});
