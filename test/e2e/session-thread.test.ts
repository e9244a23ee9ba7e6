import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { packageRoot } from '../../src/package-files/package-root.js';
import { float32ToFloat16Bits, type Tensor } from '../../src/sdk/tensor/index.js';
import type { LoadedModel } from '../../src/sdk/runtime/model-runtime.js';
import { type OnnxLoadedModel, OnnxRuntime, ThreadedLoadedModel } from '../../src/runtime/onnx/index.js';
import { writeGarbageModel, writeIdentityModel } from '../support/onnx-models.js';

const MLP = join(packageRoot(), 'model-store', 'mlp', 'model.onnx');
const CNN = join(packageRoot(), 'model-store', 'cnn', 'model.onnx');

/** `rows` rows of the MLP's 64 inputs, distinct per row. */
function mlpInput(rows: number, data: Float32Array = new Float32Array(rows * 64)): Tensor {
  for (let i = 0; i < data.length; i += 1) data[i] = ((i * 7) % 13) / 13;
  return { name: 'input', datatype: 'FP32', shape: [rows, 64], data };
}

/** Where a promise ends: its value, or the rejection's code and message. */
async function settled(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ code: (error as { code?: string }).code, message: (error as Error).message }),
  );
}

describe('sessions on the session thread', () => {
  const runtime = new OnnxRuntime();
  const opened: LoadedModel[] = [];
  let reference: OnnxLoadedModel;
  let dir: string;

  const threaded = async (path = MLP, deviceId?: number): Promise<ThreadedLoadedModel> => {
    const loaded = await runtime.load(path, { dedicatedThread: true, ...(deviceId !== undefined ? { deviceId } : {}) });
    opened.push(loaded);
    if (!(loaded instanceof ThreadedLoadedModel)) throw new Error('the session did not go to the session thread');
    return loaded;
  };

  beforeAll(async () => {
    reference = await runtime.loadHere(MLP);
    dir = await mkdtemp(join(tmpdir(), 'sluice-session-thread-'));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((loaded) => loaded.release()));
  });
  afterAll(async () => {
    await reference.release();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers a run exactly as a session on the event loop does', async () => {
    const loaded = await threaded();
    expect(loaded.inputs).toEqual(reference.inputs);
    expect(loaded.outputs).toEqual(reference.outputs);
    expect(await loaded.run([mlpInput(5)])).toEqual(await reference.run([mlpInput(5)]));
  });

  it('answers runs asked together each with its own outputs', async () => {
    const loaded = await threaded();
    const answers = await Promise.all([1, 2, 3, 4].map((rows) => loaded.run([mlpInput(rows)])));
    expect(answers.map(([output]) => output?.shape)).toEqual([[1, 10], [2, 10], [3, 10], [4, 10]]);
    expect(answers[2]).toEqual(await reference.run([mlpInput(3)]));
  });

  it('gives each device a session thread of its own, shared by the sessions of that device', async () => {
    const [first, second, other] = [await threaded(MLP, 0), await threaded(MLP, 0), await threaded(MLP, 1)];
    expect({
      sameDevice: first.threadId === second.threadId,
      otherDevice: other.threadId === first.threadId,
      offTheEventLoop: [first, other].every((loaded) => loaded.threadId !== threadId),
    }).toEqual({ sameDevice: true, otherDevice: false, offTheEventLoop: true });
  });

  it("answers a run on one device while another device's thread is still computing a long run", async () => {
    const long = await threaded(CNN, 1);
    const short = await threaded(MLP, 0);
    const finished: string[] = [];
    // A CNN batch of 512 computes for tens of milliseconds, an MLP row for microseconds: on one shared
    // thread the row would wait for the batch.
    const batch = long.run([{ name: 'input', datatype: 'FP32', shape: [512, 3, 32, 32], data: new Float32Array(512 * 3 * 32 * 32) }]);
    const row = short.run([mlpInput(1)]);
    await Promise.all([batch.then(() => finished.push('cnn batch')), row.then(() => finished.push('mlp row'))]);
    expect(finished).toEqual(['mlp row', 'cnn batch']);
  });

  it("starts a device's thread again after its last session is released, leaving other devices' threads running", async () => {
    const stays = await threaded(MLP, 0);
    const leaves = await threaded(MLP, 1);
    const before = leaves.threadId;
    await leaves.release();
    const again = await threaded(MLP, 1);
    expect({ restarted: again.threadId !== before, kept: stays.threadId === (await threaded(MLP, 0)).threadId }).toEqual({
      restarted: true,
      kept: true,
    });
    expect(await stays.run([mlpInput(2)])).toEqual(await reference.run([mlpInput(2)]));
  });

  it('moves an array from inputBuffer to the thread instead of copying it', async () => {
    const loaded = await threaded();
    const data = loaded.inputBuffer('FP32', 3 * 64);
    const [output] = await loaded.run([mlpInput(3, data as Float32Array)]);
    expect(data.byteLength).toBe(0);
    expect(output).toEqual((await reference.run([mlpInput(3)]))[0]);
    const again = loaded.inputBuffer('FP32', 3 * 64);
    expect(await loaded.run([mlpInput(3, again as Float32Array)])).toEqual(await reference.run([mlpInput(3)]));
  });

  it('keeps the buffers it moved for the next inputBuffer, and nothing of copied inputs', async () => {
    const loaded = await threaded();
    await loaded.run([mlpInput(3, loaded.inputBuffer('FP32', 3 * 64) as Float32Array)]);
    const kept = loaded.spareInputBytes;
    loaded.inputBuffer('FP32', 3 * 64);
    const afterReuse = loaded.spareInputBytes;
    await loaded.run([mlpInput(5)]);
    expect({ kept, afterReuse, afterCopiedRun: loaded.spareInputBytes }).toEqual({ kept: 3 * 64 * 4, afterReuse: 0, afterCopiedRun: 0 });
  });

  it('rounds FP32 data for an FP16 input to halves on the thread', async () => {
    const loaded = await threaded(await writeIdentityModel(dir, 'FP16'));
    const values = [0.1, -2.5, 70000, 1e-8];
    const [output] = await loaded.run([{ name: 'input', datatype: 'FP32', shape: [1, 4], data: new Float32Array(values) }]);
    expect({ declared: loaded.takesFp32ForFp16Inputs, output }).toEqual({
      declared: true,
      output: { name: 'output', datatype: 'FP16', shape: [1, 4], data: new Uint16Array(values.map(float32ToFloat16Bits)) },
    });
  });

  it('copies other input arrays, leaving the caller their data', async () => {
    const loaded = await threaded();
    const input = mlpInput(2);
    const before = Array.from(input.data as Float32Array);
    await loaded.run([input]);
    expect(Array.from(input.data as Float32Array)).toEqual(before);
  });

  it("fails a run ONNX Runtime refuses with SLUICE_INFERENCE_FAILED and the runtime's reason, naming the model file without its folders", async () => {
    const loaded = await threaded();
    const bad: Tensor = { name: 'input', datatype: 'FP32', shape: [1, 3], data: new Float32Array(3) };
    expect(await settled(loaded.run([bad]))).toEqual({
      code: 'SLUICE_INFERENCE_FAILED',
      message: expect.stringMatching(/^ONNX Runtime failed to run model file `model\.onnx`: .*(dimension|Got invalid dimensions)/),
    });
    expect(await loaded.run([mlpInput(1)])).toEqual(await reference.run([mlpInput(1)]));
  });

  it('refuses a file that is not a model with SLUICE_MODEL_LOAD_FAILED naming it', async () => {
    const garbage = await writeGarbageModel(dir);
    expect(await settled(runtime.load(garbage, { dedicatedThread: true }))).toEqual({
      code: 'SLUICE_MODEL_LOAD_FAILED',
      message: expect.stringContaining(garbage),
    });
  });

  it('finishes the runs asked before a release and refuses later ones with SLUICE_MODEL_UNLOADING', async () => {
    const loaded = await threaded();
    const asked = loaded.run([mlpInput(4)]);
    const released = loaded.release();
    expect(await settled(asked)).toEqual({ value: await reference.run([mlpInput(4)]) });
    await released;
    expect(await settled(loaded.run([mlpInput(1)]))).toEqual({
      code: 'SLUICE_MODEL_UNLOADING',
      message: 'the session for model file `model.onnx` has been released; it cannot run any more',
    });
  });

  it('does not keep a process alive once its runs are answered', async () => {
    const script = [
      `const { OnnxRuntime } = await import(${JSON.stringify(pathToFileURL(join(packageRoot(), 'dist', 'src', 'runtime', 'onnx', 'index.js')).href)});`,
      `const loaded = await new OnnxRuntime().load(${JSON.stringify(MLP)}, { dedicatedThread: true });`,
      `const [output] = await loaded.run([{ name: 'input', datatype: 'FP32', shape: [1, 64], data: new Float32Array(64) }]);`,
      `console.log(loaded.constructor.name, output.shape.join('x'));`,
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, printed: printed.trim() }).toEqual({ code: 0, printed: 'ThreadedLoadedModel 1x10' });
  });
});
