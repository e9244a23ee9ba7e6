import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Tensor } from '../../../../src/sdk/tensor/index.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/index.js';
import { createStaticCatalog, executeWorkflow, loadWorkflow, type ModelCaller } from '../../../../src/workflow/index.js';
import { writeAddModel } from '../../../support/onnx-models.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { RecordingClock } from '../support/recording-clock.js';
import { WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

const CLASSIFIER = {
  name: 'classifier',
  version: '2',
  inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, 4] }],
  outputs: [{ name: 'probs', datatype: 'FP32', shape: [-1, 3] }],
} as const;

const PROBS: Tensor = { name: 'probs', datatype: 'FP32', shape: [1, 3], data: new Float32Array([0.1, 0.7, 0.2]) };

describe('model nodes', () => {
  /*
   *   { value: [1, 2, 3, 4] } ──▶ classify (classifier@2) ──▶ out
   */
  it('make JSON inputs into tensors by the model’s input spec and call the model caller', async () => {
    const harness = new WorkflowHarness().model(CLASSIFIER, () => Promise.resolve({ probs: PROBS }));
    const plan = harness.plan(workflow('classify').node('classify', { model: 'classifier@2', inputs: { x: { value: [1, 2, 3, 4] } } }).output('out', 'classify.probs'));
    expect(await harness.run(plan)).toEqual({ outputs: { out: PROBS } });
    expect(harness.modelCalls).toEqual([
      {
        workflow: 'classify',
        node: 'classify',
        model: 'classifier',
        version: '2',
        inputs: { x: { name: 'x', datatype: 'FP32', shape: [1, 4], data: new Float32Array([1, 2, 3, 4]) } },
        signal: expect.any(AbortSignal) as unknown,
      },
    ]);
  });

  /*
   *   classify ──▶ out        the model answers without `probs`
   */
  it('fail when the model does not return an output it declares', async () => {
    const harness = new WorkflowHarness().model(CLASSIFIER, () => Promise.resolve({}));
    const plan = harness.plan(workflow('missing').node('classify', { model: 'classifier', inputs: { x: { value: [[1, 2, 3, 4]] } } }).output('out', 'classify.probs'));
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `missing` node `classify` (model classifier) failed: the model returned no output `probs`',
    });
  });

  /*
   *   rows (answers without `rows`) ──▶ classify (x: rows.rows ?? $request.rows)
   */
  it('fail when an input has no value because its sources gave none', async () => {
    const harness = new WorkflowHarness()
      .model(CLASSIFIER, () => Promise.resolve({ probs: PROBS }))
      .handler('t/rows', { inputs: [], outputs: { rows: {} }, run: () => Promise.resolve({}) });
    const plan = harness.plan(
      workflow('absent')
        .input('rows', { optional: true })
        .handler('rows', 't/rows')
        .node('classify', { model: 'classifier', inputs: { x: 'rows.rows ?? $request.rows' } })
        .output('out', 'classify.probs'),
    );
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `absent` node `classify` (model classifier) failed: input `x` has no value: every source it reads was skipped or gave nothing',
      details: { causeCode: 'SLUICE_TENSOR_MISSING_INPUT' },
    });
  });

  /*
   *   rows (answers without `rows`) ──▶ classify (retry: 3 attempts)        the sources stay as they are
   */
  it('fail without retrying when an input has no value', async () => {
    const harness = new WorkflowHarness()
      .model(CLASSIFIER, () => Promise.resolve({ probs: PROBS }))
      .handler('t/rows', { inputs: [], outputs: { rows: {} }, run: () => Promise.resolve({}) });
    const plan = harness.plan(
      workflow('absent')
        .handler('rows', 't/rows')
        .node('classify', { model: 'classifier', inputs: { x: 'rows.rows' }, retry: { attempts: 3, backoffMs: 10 } })
        .output('out', 'classify.probs'),
    );
    const clock = new RecordingClock();
    await expect(harness.run(plan, {}, { clock, debug: true })).rejects.toMatchObject({ code: 'SLUICE_WORKFLOW_NODE_FAILED', details: { attempts: 1 } });
    expect(clock.sleeps).toEqual([]);
  });

  /*
   *   $request.rows = [[1, 2]] ──▶ classify        the client's data does not fit [-1, 4]
   */
  it('refuse, without retrying, request data that does not fit the model input, with the refusal’s own code', async () => {
    const harness = new WorkflowHarness().model(CLASSIFIER, () => Promise.resolve({ probs: PROBS }));
    const plan = harness.plan(
      workflow('unfit').input('rows').node('classify', { model: 'classifier', inputs: { x: '$request.rows' }, retry: { attempts: 3 } }).output('out', 'classify.probs'),
    );
    await expect(harness.run(plan, { rows: [[1, 2]] })).rejects.toMatchObject({
      code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
      message: 'workflow `unfit` node `classify` (model classifier): input `x`: data of shape [1,2] does not fit [-1,4]',
      details: { workflow: 'unfit', node: 'classify', attempts: 1 },
    });
    expect(harness.modelCalls).toEqual([]);
  });

  /*
   *   $request.rows ──▶ same (handler) ──▶ classify        data another node made does not fit [-1, 4]
   */
  it('fail when data another node made does not fit the model input', async () => {
    const harness = new WorkflowHarness()
      .model(CLASSIFIER, () => Promise.resolve({ probs: PROBS }))
      .handler('t/same', { inputs: ['rows'], outputs: { rows: {} }, run: (values) => Promise.resolve({ rows: values['rows'] }) });
    const plan = harness.plan(
      workflow('unfit')
        .input('rows')
        .handler('same', 't/same', { rows: '$request.rows' })
        .node('classify', { model: 'classifier', inputs: { x: 'same.rows' } })
        .output('out', 'classify.probs'),
    );
    await expect(harness.run(plan, { rows: [[1, 2]] })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      details: { causeCode: 'SLUICE_TENSOR_SHAPE_MISMATCH' },
    });
  });

  /*
   *   $request.rows ──▶ classify (forEach, x: $item)        one element does not fit [-1, 4]
   */
  it('refuse request data that does not fit the model input also when it reaches the node through forEach', async () => {
    const harness = new WorkflowHarness().model(CLASSIFIER, () => Promise.resolve({ probs: PROBS }));
    const plan = harness.plan(
      workflow('unfit').input('rows').node('classify', { model: 'classifier', forEach: '$request.rows', inputs: { x: '$item' } }).output('out', 'classify.probs'),
    );
    await expect(harness.run(plan, { rows: [[[1, 2, 3, 4]], [[1, 2]]] })).rejects.toMatchObject({ code: 'SLUICE_TENSOR_SHAPE_MISMATCH' });
  });
});

describe('model nodes on ONNX Runtime', () => {
  let dir: string;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(async () => {
    await cleanup();
  });

  /*
   *   $request.a ──┐
   *                ├──▶ first (add) ──┐
   *   $request.b ──┘                  ├──▶ second (add) ──▶ sum
   *   $request.b ─────────────────────┘
   */
  it('run a real model twice in a chain: (a + b) + b', async () => {
    const model = await new OnnxRuntime().load(await writeAddModel(dir));
    try {
      const caller: ModelCaller = {
        infer: async (call) => {
          const outputs = await model.run(Object.values(call.inputs));
          return Object.fromEntries(outputs.map((tensor) => [tensor.name, tensor]));
        },
      };
      const description = { name: 'add', version: '1', inputs: model.inputs, outputs: model.outputs };
      const { plan } = loadWorkflow(
        workflow('adder')
          .input('a', { datatype: 'FP32', shape: [-1, 3] })
          .input('b', { datatype: 'FP32', shape: [-1, 3] })
          .node('first', { model: 'add', inputs: { a: '$request.a', b: '$request.b' } })
          .node('second', { model: 'add', inputs: { a: 'first.sum', b: '$request.b' } })
          .output('sum', 'second.sum')
          .text(),
        { file: 'adder.yaml', catalog: createStaticCatalog({ models: [description] }) },
      );
      const services = { models: caller, handler: () => undefined, workflow: () => undefined, logger: new RecordingLogger() };
      const result = await executeWorkflow(plan, { a: [[1, 2, 3]], b: [[10, 20, 30]] }, services);
      const sum = result.outputs['sum'] as Tensor;
      expect(sum.shape).toEqual([1, 3]);
      expect(Array.from(sum.data as Float32Array)).toEqual([21, 42, 63]);
    } finally {
      await model.release();
    }
  });
});
