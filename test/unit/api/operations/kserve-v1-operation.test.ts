import { describe, expect, it } from '@jest/globals';
import { RequestBudget } from '../../../../src/budget/request-budget.js';
import { KServeV1Operation } from '../../../../src/api/operations/kserve-v1-operation.js';
import { fakeCore } from './support/fake-core.js';

const body = (json: unknown): { bytes: Uint8Array; charset: undefined } => ({ bytes: new TextEncoder().encode(JSON.stringify(json)), charset: undefined });

describe('KServeV1Operation', () => {
  it('predicts each instance as a request of the model’s handler, within the request’s budget, answering in order', async () => {
    const { core, calls } = fakeCore({ models: [{ name: 'm', version: '1' }] });
    const budget = RequestBudget.of({ timeoutMs: 20 }, 0);
    const answer = await new KServeV1Operation(core).predict('m', body({ instances: [1, 2] }), { budget, api: 'v1' });
    expect({ answer, listName: calls.predictEach[0]?.listName, budget: calls.predictEach[0]?.budget }).toEqual({ answer: { predictions: [1, 2] }, listName: 'instances', budget });
  });

  it('refuses an unknown model before it reads the body', async () => {
    const { core } = fakeCore({});
    await expect(new KServeV1Operation(core).predict('nope', { bytes: new Uint8Array([1]), charset: undefined }, { budget: RequestBudget.of(), api: 'v1' })).rejects.toMatchObject({
      code: 'SLUICE_MODEL_NOT_FOUND',
    });
  });
});
