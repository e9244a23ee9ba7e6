import { describe, expect, it } from '@jest/globals';
import { RequestBudget } from '../../../../src/budget/request-budget.js';
import type { OperationContext } from '../../../../src/api/operations/operation-context.js';
import { PredictionsOperation, type JsonProgress, type PredictionsCodec } from '../../../../src/api/operations/predictions-operation.js';
import { fakeCore } from './support/fake-core.js';

/** A codec whose input is the JSON body itself. */
const CODEC: PredictionsCodec<unknown> = {
  handlerRequest: (input) => ({ body: input, contentType: 'application/json' }),
  envelopeRequest: (input) => ({ body: new TextEncoder().encode(JSON.stringify(input)), contentType: 'application/json' }),
};

const UNVERSIONED = { unversioned: (name: string): string => `call ${name} without a version` };

function context(budget = RequestBudget.of({}, 0)): OperationContext {
  return { budget, api: 'predictions', requestId: 'q1' };
}

const MODEL = { name: 'm', version: '1' };
const WORKFLOW = { name: 'w', version: '3', inputs: ['a'], outputs: ['out'], result: { outputs: { out: 'done' } } };

describe('PredictionsOperation.predict', () => {
  it('answers with the model’s handler on the body, within the request’s budget', async () => {
    const { core, calls } = fakeCore({ models: [MODEL] });
    const budget = RequestBudget.of({ timeoutMs: 20 }, 0);
    const answer = await new PredictionsOperation(core).predict('m', undefined, undefined, { a: 1 }, CODEC, context(budget));
    expect({ answer, budget: calls.predict[0]?.budget, api: calls.predict[0]?.api }).toEqual({ answer: { kind: 'answer', value: 'handled:{"a":1}' }, budget, api: 'predictions' });
  });

  it('answers through the envelope the request asks for', async () => {
    const { core, calls } = fakeCore({ models: [MODEL], envelopes: ['kserve'] });
    const answer = await new PredictionsOperation(core).predict('m', undefined, 'kserve', { a: 1 }, CODEC, context());
    expect({ answer, enveloped: calls.predictEnveloped.length, handled: calls.predict.length }).toEqual({
      answer: { kind: 'enveloped', response: { body: 'kserve', contentType: 'text/plain' } },
      enveloped: 1,
      handled: 0,
    });
  });

  it('answers through the model’s own envelope when the request asks for none', async () => {
    const { core } = fakeCore({ models: [{ ...MODEL, envelope: 'json' }], envelopes: ['json'] });
    expect(await new PredictionsOperation(core).predict('m', undefined, undefined, {}, CODEC, context())).toMatchObject({ kind: 'enveloped' });
  });

  it('refuses an unknown model even when a workflow has its name, unless the transport runs workflows by name', async () => {
    const { core } = fakeCore({ workflows: [WORKFLOW] });
    await expect(new PredictionsOperation(core).predict('w', undefined, undefined, { a: 1 }, CODEC, context())).rejects.toMatchObject({ code: 'SLUICE_MODEL_NOT_FOUND' });
  });

  it('runs a workflow by name for a transport that runs them, answering its single output’s value', async () => {
    const { core, calls } = fakeCore({ workflows: [WORKFLOW] });
    const answer = await new PredictionsOperation(core).predict('w', undefined, undefined, { a: 1 }, CODEC, context(), UNVERSIONED);
    expect({ answer, inputs: calls.runs[0]?.inputs }).toEqual({ answer: { kind: 'answer', value: 'done' }, inputs: { a: 1 } });
  });
});

describe('PredictionsOperation.runWorkflow', () => {
  it('bounds the run by the request’s budget', async () => {
    const { core, calls } = fakeCore({ workflows: [WORKFLOW] });
    const budget = RequestBudget.of({ timeoutMs: 20, priority: 2 }, 0);
    await new PredictionsOperation(core).runWorkflow('w', { a: 1 }, CODEC, context(budget));
    expect(calls.runs[0]?.options.budget).toBe(budget);
  });

  it('answers {outputs, debug} when asked for debug', async () => {
    const debug = { workflow: 'w', totalMs: 1, nodes: {}, skipped: [] };
    const { core } = fakeCore({ workflows: [{ ...WORKFLOW, result: { outputs: { out: 'done' }, debug } }] });
    expect(await new PredictionsOperation(core).runWorkflow('w', { a: 1 }, CODEC, context(), { debug: true })).toEqual({ outputs: { out: 'done' }, debug });
  });

  it('tells each finished forEach call with its outputs as JSON', async () => {
    const tensor = { name: 't', datatype: 'FP32' as const, shape: [2], data: new Float32Array([1, 2]) };
    const { core } = fakeCore({ workflows: [{ ...WORKFLOW, progress: [{ node: 'each', index: 1, count: 2, outputs: { t: tensor } }] }] });
    const heard: JsonProgress[] = [];
    await new PredictionsOperation(core).runWorkflow('w', { a: 1 }, CODEC, context(), { progress: (step) => heard.push(step) });
    expect(heard).toEqual([{ node: 'each', index: 1, count: 2, outputs: { t: [1, 2] } }]);
  });
});
