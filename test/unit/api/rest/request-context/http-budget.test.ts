import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { HttpCancellation, httpBudget } from '../../../../../src/api/rest/request-context/http-budget.js';

/** A request and response as the cancellation looks at them: the socket's and the response's state. */
function exchange(): { request: IncomingMessage; response: ServerResponse & { finish(): void; close(): void }; socket: { destroyed: boolean } } {
  const socket = { destroyed: false };
  const request = { socket } as unknown as IncomingMessage;
  const emitter = new EventEmitter();
  const response = Object.assign(emitter, {
    destroyed: false,
    writableFinished: false,
    finish(): void {
      response.writableFinished = true;
      emitter.emit('close');
    },
    close(): void {
      response.destroyed = true;
      emitter.emit('close');
    },
  });
  return { request, response: response as unknown as ServerResponse & { finish(): void; close(): void }, socket };
}

describe('HttpCancellation', () => {
  it('looks at the socket: cancelled once it is destroyed', () => {
    const { request, response, socket } = exchange();
    const cancellation = new HttpCancellation(request, response);
    const before = cancellation.isCancelled();
    socket.destroyed = true;
    expect({ before, after: cancellation.isCancelled() }).toEqual({ before: false, after: true });
  });

  it('has no signal, so that a request costs no listener', () => {
    const { request, response } = exchange();
    const budget = httpBudget({}, request, response);
    expect({ signal: budget.signal, listeners: response.listenerCount('close') }).toEqual({ signal: undefined, listeners: 0 });
  });

  it('aborts the signal it watches with when the response closes before its answer', () => {
    const { request, response } = exchange();
    const signal = new HttpCancellation(request, response).watch();
    response.close();
    expect(signal.aborted).toBe(true);
  });

  it('leaves the signal alone when the response closes after its answer', () => {
    const { request, response } = exchange();
    const signal = new HttpCancellation(request, response).watch();
    response.finish();
    expect(signal.aborted).toBe(false);
  });

  it('watches with one signal and one listener however often it is asked', () => {
    const { request, response } = exchange();
    const cancellation = new HttpCancellation(request, response);
    const [first, second] = [cancellation.watch(), cancellation.watch()];
    expect({ same: first === second, listeners: response.listenerCount('close') }).toEqual({ same: true, listeners: 1 });
  });
});

describe('httpBudget', () => {
  it('reads x-sluice-priority and x-sluice-timeout-ms', () => {
    const { request, response } = exchange();
    const budget = httpBudget({ 'x-sluice-priority': '2', 'x-sluice-timeout-ms': '250' }, request, response);
    expect({ priority: budget.priority, timeoutMs: budget.timeoutMs, deadline: budget.deadline }).toEqual({ priority: 2, timeoutMs: 250, deadline: Infinity });
  });

  it('refuses a header that is not a positive integer, naming it', () => {
    const { request, response } = exchange();
    expect(() => httpBudget({ 'x-sluice-priority': 'high' }, request, response)).toThrow('the x-sluice-priority header must be an integer of at least 1, got "high"');
  });
});
