import { EventEmitter } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import { Metadata } from '@grpc/grpc-js';
import { callBudget, callSignal, type GrpcCall } from '../../../../../src/api/grpc/calls/grpc-call.js';

/** A call whose client cancels when the test says. */
class FakeCall extends EventEmitter implements GrpcCall {
  cancelled = false;
  readonly metadata = new Metadata();
  /** The client's deadline, in ms since the epoch. */
  deadline = Infinity;
  getDeadline(): number {
    return this.deadline;
  }
  getPath(): string {
    return '/inference.GRPCInferenceService/ModelStreamInfer';
  }
  cancel(): void {
    this.cancelled = true;
    this.emit('cancelled');
  }
}

describe('callSignal', () => {
  it('waits on the call with one listener however many requests of a stream wait, and aborts each still waiting', () => {
    const call = new FakeCall();
    const waiting = Array.from({ length: 20 }, () => callSignal(call));
    waiting[0]?.dispose();
    const listeners = call.listenerCount('cancelled');
    call.cancel();
    expect({ listeners, aborted: waiting.map((w) => w.signal.aborted) }).toEqual({ listeners: 1, aborted: [false, ...new Array<boolean>(19).fill(true)] });
  });

  it('is aborted at once for a call already cancelled', () => {
    const call = new FakeCall();
    call.cancel();
    expect(callSignal(call).signal.aborted).toBe(true);
  });
});

describe('callBudget', () => {
  it('takes the call’s deadline as the budget’s hard deadline', () => {
    const call = new FakeCall();
    call.deadline = Date.now() + 60_000;
    const before = performance.now();
    const { budget } = callBudget(call);
    expect(budget.deadline).toBeGreaterThan(before + 59_000);
  });

  it('reads x-sluice-priority and x-sluice-timeout-ms from the metadata', () => {
    const call = new FakeCall();
    call.metadata.set('x-sluice-priority', '2');
    call.metadata.set('x-sluice-timeout-ms', '250');
    const { budget } = callBudget(call);
    expect({ priority: budget.priority, timeoutMs: budget.timeoutMs }).toEqual({ priority: 2, timeoutMs: 250 });
  });

  it('is cancelled, and aborts its signal, when the client cancels the call', () => {
    const call = new FakeCall();
    const { budget } = callBudget(call);
    call.cancel();
    expect({ cancelled: budget.isCancelled(), aborted: budget.signal?.aborted }).toEqual({ cancelled: true, aborted: true });
  });

  it('stops waiting on the call once disposed', () => {
    const call = new FakeCall();
    const { budget, dispose } = callBudget(call);
    dispose();
    call.cancel();
    expect(budget.signal?.aborted).toBe(false);
  });
});
