import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GpuExecutor } from '../../../../plugins/gpu-executor/index.js';
import { SluiceError } from '../../../../src/sdk/index.js';
import { writeAddModel } from '../../../support/onnx-models.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { loadContext } from './support/load-context.js';
import { RecordingRuntime } from './support/recording-runtime.js';

/** Lets every already-settled promise callback run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('GpuExecutor warm-up', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let modelPath: string;

  beforeAll(async () => {
    dir = await makeTempDir();
    modelPath = await writeAddModel(dir.dir);
  });

  afterAll(() => dir.cleanup());

  it('runs a zero batch of the largest batch size before the first instance is handed out', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor().load(loadContext(modelPath, runtime, { maxBatchSize: 5 }));
    expect(runtime.runsStarted).toBe(0);
    await model.createInstance(0);
    await model.release();
    expect(runtime.runs.map((run) => run.inputs)).toEqual([
      [
        { name: 'a', datatype: 'FP32', shape: [5, 3], data: new Float32Array(15) },
        { name: 'b', datatype: 'FP32', shape: [5, 3], data: new Float32Array(15) },
      ],
    ]);
  });

  it('is not ready while the warm-up run is held', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor().load(loadContext(modelPath, runtime));
    runtime.hold();
    let ready = false;
    const instance = model.createInstance(0).then(() => (ready = true));
    await runtime.untilRunsStarted(1);
    await settle();
    expect(ready).toBe(false);
    runtime.open();
    await instance;
    await model.release();
  });

  it('warms a device up once for all the instances on it', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor().load(loadContext(modelPath, runtime));
    await Promise.all([model.createInstance(0), model.createInstance(1), model.createInstance(2)]);
    await model.release();
    expect(runtime.runsStarted).toBe(1);
  });

  it('uses the row shapes given for the warm-up', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUpShapes: { a: [3], b: [3] } }).load(loadContext(modelPath, runtime, { maxBatchSize: 2 }));
    await model.createInstance(0);
    await model.release();
    expect(runtime.runs[0]?.inputs.map((input) => input.shape)).toEqual([
      [2, 3],
      [2, 3],
    ]);
  });

  it('refuses row shapes that do not fit the model’s inputs with SLUICE_MANIFEST_INVALID, and frees the session it opened', async () => {
    const runtime = new RecordingRuntime();
    const loading = new GpuExecutor().load(loadContext(modelPath, runtime, { executorOptions: { warmUp: false, warmUpShapes: { a: [3, 3], c: [3] } } }));
    await expect(loading).rejects.toEqual(
      new SluiceError(
        'SLUICE_MANIFEST_INVALID',
        `executorOptions of ${modelPath}: \`warmUpShapes\`: \`a\` has shape [-1,3], so its row shape needs 1 dimension(s), got [3,3]; ` +
          '`c` is not an input of the model (inputs: a, b)',
      ),
    );
    expect([runtime.loads.length, runtime.released]).toEqual([1, 1]);
  });

  it('skips the warm-up when told to', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUp: false }).load(loadContext(modelPath, runtime));
    await model.createInstance(0);
    await model.release();
    expect(runtime.runsStarted).toBe(0);
  });

  it('fails the instance as a load failure naming the model, the device and what it fed', async () => {
    const model = await new GpuExecutor({ warmUpShapes: { a: [4], b: [4] } }).load(loadContext(modelPath, new RecordingRuntime(), { maxBatchSize: 2 }));
    const failure = model.createInstance(0);
    await expect(failure).rejects.toMatchObject({
      code: 'SLUICE_MODEL_LOAD_FAILED',
      message:
        `warm-up of ${modelPath} on cpu failed with a FP32[2,4], b FP32[2,4] (64 bytes of input): ONNX Runtime failed to run model file \`${basename(modelPath)}\`: ` +
        'Got invalid dimensions for input: a for the following indices\n index: 1 Got: 4 Expected: 3\n Please fix either the inputs/outputs or the model. ' +
        '(if the model cannot take zeros of these shapes, give shapes it can take in executorOptions.warmUpShapes, or set warmUp: false)',
    });
    await model.release();
  });

  it('tries the warm-up again for the next instance after a failure', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUpShapes: { a: [4], b: [4] } }).load(loadContext(modelPath, runtime));
    await expect(model.createInstance(0)).rejects.toMatchObject({ code: 'SLUICE_MODEL_LOAD_FAILED' });
    await expect(model.createInstance(0)).rejects.toMatchObject({ code: 'SLUICE_MODEL_LOAD_FAILED' });
    await model.release();
    expect(runtime.runsStarted).toBe(2);
  });
});
