import { describe, expect, it } from '@jest/globals';
import type { ModelVersion } from '../../../src/serving/model-version.js';
import { HandlerCall } from '../../../src/serving/stage-deadline/handler-call.js';
import { RequestBudget } from '../../../src/budget/request-budget.js';

const VERSION = { name: 'm', version: '2', manifest: { handler: 'slow' } } as unknown as ModelVersion;

/** A call for {@link VERSION} that started at 100 and is due at 130, now in `stage`. */
function callIn(stage: 'preprocess' | 'postprocess'): HandlerCall<string> {
  const call = new HandlerCall<string>();
  call.begin(VERSION, 100, RequestBudget.of({ deadlineMs: 30 }, 100));
  call.during(stage, undefined);
  return call;
}

describe('HandlerCall', () => {
  it('answers SLUICE_RESPONSE_TIMEOUT naming the model, version, handler and stage when it expires', async () => {
    const call = callIn('postprocess');
    call.expire(131.4);
    await expect(call.answer).rejects.toMatchObject({
      code: 'SLUICE_RESPONSE_TIMEOUT',
      details: { stage: 'postprocess' },
      message:
        'model `m` version `2` did not answer in time: its response timeout passed after 31 ms while handler `slow` ran postprocess, whose promise had not settled; raise the timeout or make the handler finish sooner',
    });
  });

  it('tells its observer once, with the failure that settled it first, and nothing of what came after', async () => {
    const told: unknown[][] = [];
    const call = new HandlerCall<string>((version, started, queueUs, failure) => told.push([version.name, started, queueUs, failure]));
    call.begin(VERSION, 100, RequestBudget.of({ deadlineMs: 30 }, 100));
    call.queueUs = 7;
    call.fail('first');
    call.resolve('late');
    call.expire(200);
    await expect(call.answer).rejects.toBe('first');
    expect(told).toEqual([['m', 100, 7, { error: 'first' }]]);
  });

  it('tells its observer of an answer with no failure', async () => {
    const told: unknown[][] = [];
    const call = new HandlerCall<string>((version, started, queueUs, failure) => told.push([version.name, started, queueUs, failure]));
    call.begin(VERSION, 100, RequestBudget.of({ deadlineMs: 30 }, 100));
    call.resolve('done');
    await expect(call.answer).resolves.toBe('done');
    expect(told).toEqual([['m', 100, undefined, undefined]]);
  });

  it('tells its observer nothing when it never began on a version', async () => {
    const told: unknown[] = [];
    const call = new HandlerCall<string>(() => told.push('told'));
    call.fail(new Error('no such model'));
    await expect(call.answer).rejects.toThrow('no such model');
    expect(told).toEqual([]);
  });
});
