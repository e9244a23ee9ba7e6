import { EventEmitter } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import { Metadata } from '@grpc/grpc-js';
import { callSignal, type GrpcCall } from '../../../../../src/api/grpc/common/grpc-call.js';

/** A call whose client cancels when the test says. */
class FakeCall extends EventEmitter implements GrpcCall {
  cancelled = false;
  readonly metadata = new Metadata();
  getDeadline(): number {
    return Infinity;
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
