import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import { RequestBudget } from '../../../../src/budget/request-budget.js';
import type { Tensor } from '../../../../src/sdk/tensor/index.js';
import { OipInferOperation, type DecodedOipInfer, type OipAnswerer, type OipCodec } from '../../../../src/api/operations/oip-infer-operation.js';
import type { OperationContext } from '../../../../src/api/operations/operation-context.js';
import { fakeCore } from './support/fake-core.js';

const X: Tensor = { name: 'x', datatype: 'FP32', shape: [1, 1], data: new Float32Array([1]) };
const Y: Tensor = { name: 'y', datatype: 'FP32', shape: [1, 1], data: new Float32Array([2]) };

/** What the test codec encodes: who answered and the outputs' names. */
interface Encoded {
  readonly answerer: OipAnswerer;
  readonly outputs: readonly string[];
}

/** A codec whose input is already decoded; it notes what it decoded, in order. */
function testCodec(steps: string[] = []): OipCodec<DecodedOipInfer, DecodedOipInfer, Encoded> {
  return {
    decode: (input) => {
      steps.push('decode');
      return input;
    },
    encode: (answerer, outputs) => ({ answerer, outputs: outputs.map((t) => t.name) }),
    unversioned: (name) => `call ${name} without a version`,
  };
}

function request(parameters: Readonly<Record<string, unknown>> = {}, extra: Partial<DecodedOipInfer> = {}): DecodedOipInfer {
  return { id: 'r1', inputs: [X], parameters, ...extra };
}

function context(budget = RequestBudget.of({}, 0)): OperationContext {
  return { budget, api: 'v2', requestId: 'q1' };
}

const MODEL = { name: 'm', version: '1' };
const WORKFLOW = { name: 'w', version: '3', inputs: ['x'], outputs: ['y', 'z'], result: { outputs: { y: Y, z: 'text' } } };

describe('OipInferOperation on a model', () => {
  it('runs the decoded inputs on the version named, and encodes the answer with its name, version and the request’s id', async () => {
    const { core, calls } = fakeCore({ models: [MODEL], outputs: [Y] });
    const answer = await new OipInferOperation(core).infer('m', '1', request({}, { outputs: ['y'] }), testCodec(), context());
    expect({ answer, asked: calls.inferTensors.map((r) => [r.model, r.version, r.inputs, r.outputs, r.api, r.requestId]) }).toEqual({
      answer: { answerer: { name: 'm', version: '1', id: 'r1' }, outputs: ['y'] },
      asked: [['m', '1', [X], ['y'], 'v2', 'q1']],
    });
  });

  it('keeps the edge’s own timeout when parameters.timeout is longer: the smaller wins', async () => {
    const { core, calls } = fakeCore({ models: [MODEL] });
    await new OipInferOperation(core).infer('m', undefined, request({ timeout: 60_000_000 }), testCodec(), context(RequestBudget.of({ timeoutMs: 20 }, 0)));
    expect(calls.inferTensors[0]?.budget?.timeoutMs).toBe(20);
  });

  it('takes parameters.timeout (microseconds) when it is shorter than the edge’s', async () => {
    const { core, calls } = fakeCore({ models: [MODEL] });
    await new OipInferOperation(core).infer('m', undefined, request({ timeout: 1500 }), testCodec(), context(RequestBudget.of({ timeoutMs: 20 }, 0)));
    expect(calls.inferTensors[0]?.budget?.timeoutMs).toBe(1.5);
  });

  it('lets parameters.priority replace the edge’s priority', async () => {
    const { core, calls } = fakeCore({ models: [MODEL] });
    await new OipInferOperation(core).infer('m', undefined, request({ priority: 1 }), testCodec(), context(RequestBudget.of({ priority: 3 }, 0)));
    expect(calls.inferTensors[0]?.budget?.priority).toBe(1);
  });

  it('refuses an unknown model before it decodes the body', async () => {
    const { core } = fakeCore({ models: [MODEL] });
    const steps: string[] = [];
    await expect(new OipInferOperation(core).infer('nope', undefined, request(), testCodec(steps), context())).rejects.toMatchObject({ code: 'SLUICE_MODEL_NOT_FOUND' });
    expect(steps).toEqual([]);
  });

  it('reads the budget only once the body is decoded, so a bad body is named before a bad knob', async () => {
    const { core } = fakeCore({ models: [MODEL] });
    const codec = { ...testCodec(), decode: (): DecodedOipInfer => { throw new SluiceError('SLUICE_REQUEST_INVALID', 'bad body'); } };
    const badKnob: OperationContext = {
      api: 'v2',
      get budget(): RequestBudget {
        throw new SluiceError('SLUICE_REQUEST_INVALID', 'bad knob');
      },
    };
    await expect(new OipInferOperation(core).infer('m', undefined, request(), codec, badKnob)).rejects.toMatchObject({ message: 'bad body' });
  });

  it('passes the edge’s gathering on to the inference service', async () => {
    const { core, calls } = fakeCore({ models: [MODEL] });
    await new OipInferOperation(core).infer('m', undefined, request(), testCodec(), { ...context(), gather: true });
    expect(calls.inferTensors[0]?.gather).toBe(true);
  });
});

describe('OipInferOperation on a workflow', () => {
  it('runs the workflow a name that is no model’s names, on inputs by tensor name, and encodes the outputs asked for at the workflow’s version', async () => {
    const { core, calls } = fakeCore({ workflows: [WORKFLOW] });
    const answer = await new OipInferOperation(core).infer('w', undefined, request({}, { outputs: ['y'] }), testCodec(), context());
    expect({ answer, inputs: calls.runs.map((r) => r.inputs) }).toEqual({ answer: { answerer: { name: 'w', version: '3', id: 'r1' }, outputs: ['y'] }, inputs: [{ x: X }] });
  });

  it('encodes every output the run gave when none is asked for', async () => {
    const { core } = fakeCore({ workflows: [WORKFLOW] });
    expect((await new OipInferOperation(core).infer('w', undefined, request(), testCodec(), context())).outputs).toEqual(['y', 'z']);
  });

  it('bounds the run by the same budget a model gets: the smaller own timeout wins', async () => {
    const { core, calls } = fakeCore({ workflows: [WORKFLOW] });
    await new OipInferOperation(core).infer('w', undefined, request({ timeout: 60_000_000 }), testCodec(), context(RequestBudget.of({ timeoutMs: 20 }, 0)));
    expect(calls.runs[0]?.options.budget?.timeoutMs).toBe(20);
  });

  it('refuses another version of a workflow, saying how the transport calls it without one', async () => {
    const { core } = fakeCore({ workflows: [WORKFLOW] });
    await expect(new OipInferOperation(core).infer('w', '9', request(), testCodec(), context())).rejects.toMatchObject({
      code: 'SLUICE_MODEL_VERSION_NOT_FOUND',
      message: '`w` is a workflow served at version `3` only (got version `9`); call w without a version',
    });
  });

  it('refuses an output the workflow does not declare before it runs', async () => {
    const { core, calls } = fakeCore({ workflows: [WORKFLOW] });
    await expect(new OipInferOperation(core).infer('w', undefined, request({}, { outputs: ['nope'] }), testCodec(), context())).rejects.toMatchObject({
      code: 'SLUICE_TENSOR_UNKNOWN_OUTPUT',
    });
    expect(calls.runs).toEqual([]);
  });

  it('encodes each finished forEach call for the progress listener', async () => {
    const progress = [{ node: 'each', index: 0, count: 2, outputs: { y: Y } }];
    const { core } = fakeCore({ workflows: [{ ...WORKFLOW, progress }] });
    const heard: unknown[] = [];
    await new OipInferOperation(core).infer('w', undefined, request(), testCodec(), context(), (encoded, step) => heard.push([encoded, step.node, step.index]));
    expect(heard).toEqual([[{ answerer: { name: 'w', version: '3', id: 'r1' }, outputs: ['y'] }, 'each', 0]]);
  });
});
