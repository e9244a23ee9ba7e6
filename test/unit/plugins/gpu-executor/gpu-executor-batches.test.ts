import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GpuExecutor } from '../../../../plugins/gpu-executor/index.js';
import { float32ToFloat16Bits, type Batch, type BatchItem, type SluiceError } from '../../../../src/sdk/index.js';
import { writeAddModel, writeIdentityModel, writeLookupModel } from '../../../support/onnx-models.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { loadContext } from './support/load-context.js';
import { RecordingRuntime } from './support/recording-runtime.js';

/** Lets every already-settled promise callback run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One row for the Add model: `a` = [value, value, value], `b` = [1, 1, 1]. */
const addRow = (value: number): BatchItem => ({
  rows: 1,
  inputs: [
    { name: 'a', datatype: 'FP32', shape: [1, 3], data: new Float32Array([value, value, value]) },
    { name: 'b', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 1, 1]) },
  ],
});
const pair = (): Batch => ({ items: [addRow(1), addRow(2)] });

describe('GpuExecutor batches', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let addPath: string;
  let fp16Path: string;
  let lookupPath: string;

  beforeAll(async () => {
    dir = await makeTempDir();
    addPath = await writeAddModel(dir.dir);
    fp16Path = await writeIdentityModel(dir.dir, 'FP16');
    lookupPath = await writeLookupModel(dir.dir);
  });

  afterAll(() => dir.cleanup());

  it('answers each item of a batch with its own rows', async () => {
    const model = await new GpuExecutor().load(loadContext(addPath, new RecordingRuntime()));
    const results = await (await model.createInstance(0)).run(pair());
    await model.release();
    expect(results).toEqual([
      { ok: true, outputs: [{ name: 'sum', datatype: 'FP32', shape: [1, 3], data: new Float32Array([2, 2, 2]) }] },
      { ok: true, outputs: [{ name: 'sum', datatype: 'FP32', shape: [1, 3], data: new Float32Array([3, 3, 3]) }] },
    ]);
  });

  it('fails only the item of a batch the runtime cannot run, without failing the instance', async () => {
    const model = await new GpuExecutor().load(loadContext(lookupPath, new RecordingRuntime()));
    const ids = (id: bigint): BatchItem => ({ rows: 1, inputs: [{ name: 'ids', datatype: 'INT64', shape: [1], data: new BigInt64Array([id]) }] });
    const results = await (await model.createInstance(0)).run({ items: [ids(1n), ids(99n), ids(4n)] });
    await model.release();
    expect(results.map((result) => (result.ok ? result.outputs[0]?.data : result.error.code))).toEqual([
      new Float32Array([11]),
      'SLUICE_INFERENCE_FAILED',
      new Float32Array([14]),
    ]);
  });

  it('feeds an FP16 model the halves of FP32 request data and answers FP16', async () => {
    const model = await new GpuExecutor().load(loadContext(fp16Path, new RecordingRuntime()));
    const values = [0.1, -2.5, 70000, 1e-8];
    const [result] = await (await model.createInstance(0)).run({
      items: [{ rows: 1, inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], data: new Float32Array(values) }] }],
    });
    await model.release();
    expect(result).toEqual({
      ok: true,
      outputs: [{ name: 'output', datatype: 'FP16', shape: [1, 4], data: new Uint16Array(values.map(float32ToFloat16Bits)) }],
    });
  });

  it('leaves FP32 data for an FP16 input to a session that rounds it itself', async () => {
    const runtime = new RecordingRuntime();
    runtime.convertsFp16Inputs = true;
    const model = await new GpuExecutor({ warmUp: false }).load(loadContext(fp16Path, runtime));
    const values = [0.1, -2.5, 70000];
    const [result] = await (await model.createInstance(0)).run({
      items: [{ rows: 1, inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 3], data: new Float32Array(values) }] }],
    });
    await model.release();
    expect({ given: runtime.runs.map((run) => run.inputs[0]?.datatype), result }).toEqual({
      given: ['FP32'],
      result: { ok: true, outputs: [{ name: 'output', datatype: 'FP16', shape: [1, 3], data: new Uint16Array(values.map(float32ToFloat16Bits)) }] },
    });
  });

  it('accepts FP32 requests for its FP16 inputs', async () => {
    const model = await new GpuExecutor().load(loadContext(fp16Path, new RecordingRuntime()));
    await model.release();
    expect(model.inputs.map((spec) => model.acceptsDatatype(spec, 'FP32'))).toEqual([true]);
  });

  it('refuses, before any run, BYTES values its ONNX Runtime sessions cannot take', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor().load(loadContext(fp16Path, runtime));
    const runsBefore = runtime.runsStarted;
    expect(() => {
      model.checkInput({ name: 'text', datatype: 'BYTES', shape: [1], data: [new Uint8Array([0xff])] });
    }).toThrow(expect.objectContaining({ code: 'SLUICE_TENSOR_INVALID_VALUE' }));
    await model.release();
    expect(runtime.runsStarted).toBe(runsBefore);
  });

  it('answers FP16 outputs as FP32 when told to', async () => {
    const model = await new GpuExecutor({ fp16OutputsAsFp32: true }).load(loadContext(fp16Path, new RecordingRuntime()));
    const [result] = await (await model.createInstance(0)).run({
      items: [{ rows: 1, inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1.5, -2, 70000]) }] }],
    });
    await model.release();
    expect(result).toEqual({ ok: true, outputs: [{ name: 'output', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1.5, -2, Infinity]) }] });
  });

  it('declares widened FP16 outputs as FP32', async () => {
    const model = await new GpuExecutor({ fp16OutputsAsFp32: true }).load(loadContext(fp16Path, new RecordingRuntime()));
    await model.release();
    expect(model.outputs).toEqual([{ name: 'output', datatype: 'FP32', shape: [-1, -1] }]);
  });

  it('reuses the input arrays of a batch for the next batch of the same size', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUp: false }).load(loadContext(addPath, runtime));
    const instance = await model.createInstance(0);
    await instance.run(pair());
    await instance.run(pair());
    await model.release();
    const [first, second] = runtime.runs;
    expect([second?.inputs[0]?.data === first?.inputs[0]?.data, second?.inputs[1]?.data === first?.inputs[1]?.data]).toEqual([true, true]);
  });

  it('assembles a batch in the input buffers its session hands out, when it hands them out', async () => {
    const runtime = new RecordingRuntime();
    runtime.handsOutInputBuffers = true;
    const model = await new GpuExecutor({ warmUp: false }).load(loadContext(addPath, runtime));
    const instance = await model.createInstance(0);
    const results = await instance.run(pair());
    await model.release();
    const [run] = runtime.runs;
    expect({ a: run?.inputs[0]?.data === runtime.handedOut[0], b: run?.inputs[1]?.data === runtime.handedOut[1], ok: results.map((r) => r.ok) }).toEqual({
      a: true,
      b: true,
      ok: [true, true],
    });
  });

  it('opens a new session on the device for the instance that replaces one whose session was lost', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUp: false }).load(loadContext(addPath, runtime));
    const failing = await model.createInstance(0);
    runtime.loseNextRun();
    const lost = await failing.run(pair()).then(
      () => 'answered',
      (error: unknown) => (error as SluiceError).code,
    );
    const replacement = await model.createInstance(0);
    const results = await replacement.run(pair());
    await model.release();
    expect({ lost, loads: runtime.loads.length, ranOn: runtime.runs.at(-1)?.session, ok: results.map((r) => r.ok) }).toEqual({
      lost: 'SLUICE_INSTANCE_FAILED',
      loads: 2,
      ranOn: 1,
      ok: [true, true],
    });
  });

  it('does not reuse input arrays when the pool is off', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUp: false, inputBufferPoolBytes: 0 }).load(loadContext(addPath, runtime));
    const instance = await model.createInstance(0);
    await instance.run(pair());
    await instance.run(pair());
    await model.release();
    expect(runtime.runs[1]?.inputs[0]?.data).not.toBe(runtime.runs[0]?.inputs[0]?.data);
  });

  it('does not hand a batch’s input arrays to another batch while it runs', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUp: false }).load(loadContext(addPath, runtime));
    const [one, two] = await Promise.all([model.createInstance(0), model.createInstance(1)]);
    await one.run(pair());
    runtime.hold();
    const running = [one.run(pair()), two.run(pair())];
    await runtime.untilRunsStarted(3);
    const [, first, second] = runtime.runs;
    runtime.open();
    const results = await Promise.all(running);
    await model.release();
    expect({ shared: second?.inputs[0]?.data === first?.inputs[0]?.data, ok: results.flat().map((r) => r.ok) }).toEqual({
      shared: false,
      ok: [true, true, true, true],
    });
  });

  it('holds a batch beyond the device’s in-flight limit until a running one finishes', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUp: false, maxInFlightBatchesPerDevice: 1 }).load(loadContext(addPath, runtime));
    const [one, two] = await Promise.all([model.createInstance(0), model.createInstance(1)]);
    runtime.hold();
    const first = one.run(pair());
    await runtime.untilRunsStarted(1);
    const second = two.run(pair());
    await settle();
    const startedWhileHeld = runtime.runsStarted;
    runtime.open();
    await Promise.all([first, second]);
    await model.release();
    expect({ startedWhileHeld, started: runtime.runsStarted }).toEqual({ startedWhileHeld: 1, started: 2 });
  });

  it('runs two batches at once on a device by default', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUp: false }).load(loadContext(addPath, runtime));
    const [one, two] = await Promise.all([model.createInstance(0), model.createInstance(1)]);
    runtime.hold();
    const running = [one.run(pair()), two.run(pair())];
    await runtime.untilRunsStarted(1);
    await settle();
    const startedWhileHeld = runtime.runsStarted;
    runtime.open();
    await Promise.all(running);
    await model.release();
    expect(startedWhileHeld).toBe(2);
  });
});
