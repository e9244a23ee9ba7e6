import type { Metadata } from '@grpc/grpc-js';
import type { RequestKnobs } from '../../../serving/inference-service.js';
import { PRIORITY_HEADER, TIMEOUT_HEADER, positiveInteger } from '../../common/knob-values.js';

/** What Sluice uses of a server call (unary, server-streaming or bidirectional); the transport's calls have this shape, as grpc-js's do. */
export interface GrpcCall {
  readonly cancelled: boolean;
  readonly metadata: Metadata;
  getDeadline(): Date | number;
  getPath(): string;
  once(event: 'cancelled', listener: () => void): unknown;
  removeListener(event: 'cancelled', listener: () => void): unknown;
  /** The most bytes a response message may take; Sluice's transport only (`GrpcServerCall`), as is {@link serializedSize}. */
  readonly maxSendMessageBytes?: number;
  /** The bytes a response message serializes to (kept for its write); undefined when it does not serialize. */
  serializedSize?(message: object): number | undefined;
}

/** The method path of a call (`/inference.GRPCInferenceService/ModelInfer`), or `''` when unknown. */
export function callPathOf(call: unknown): string {
  const getPath = (call as Partial<GrpcCall> | undefined)?.getPath;
  return typeof getPath === 'function' ? getPath.call(call) : '';
}

/** A metadata entry as text (the first value when repeated); undefined when absent or binary. */
export function metadataText(metadata: Metadata, name: string): string | undefined {
  const [value] = metadata.get(name);
  return typeof value === 'string' ? value : undefined;
}

/**
 * A metadata entry as auth reads it: its text values joined with `, ` when repeated (as HTTP combines
 * repeated headers), so `Bearer` parsing refuses several `authorization` entries instead of picking one;
 * undefined when absent or binary.
 */
export function metadataAuthText(metadata: Metadata, name: string): string | undefined {
  const values = metadata.get(name);
  if (values.length <= 1) return metadataText(metadata, name);
  return values.every((value) => typeof value === 'string') ? values.join(', ') : undefined;
}

/** Milliseconds left before the client's deadline; undefined when the call has none. */
export function deadlineMsOf(call: GrpcCall): number | undefined {
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/**
 * Scheduling knobs of a call: its deadline (the request's hard deadline in the scheduler), a look at
 * whether the client cancelled (a queued request of a cancelled call never runs), and the
 * `x-sluice-priority` / `x-sluice-timeout-ms` metadata as REST reads the headers. Calls gather: an
 * HTTP/2 connection delivers many calls in one read, and the calls of one read then share a batch,
 * instead of the first ones each running alone on an idle instance while the rest wait for them.
 */
export function callKnobs(call: GrpcCall): RequestKnobs {
  const priority = positiveInteger(metadataText(call.metadata, PRIORITY_HEADER), `the ${PRIORITY_HEADER} metadata`, 1);
  const timeoutMs = positiveInteger(metadataText(call.metadata, TIMEOUT_HEADER), `the ${TIMEOUT_HEADER} metadata`, 1);
  const deadlineMs = deadlineMsOf(call);
  return {
    ...(priority !== undefined ? { priority } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(deadlineMs !== undefined ? { deadlineMs } : {}),
    isCancelled: () => call.cancelled,
    gather: true,
  };
}

/**
 * The aborts waiting on each call's cancellation. A stream's requests each wait on the same call, and as
 * many listeners on the call itself (one per request in flight) would pass the emitter's listener limit;
 * so each call gets one listener, which runs them all.
 */
const waitingOn = new WeakMap<GrpcCall, Set<() => void>>();

/** A signal that aborts when the client cancels the call (or its deadline passes); `dispose` when done. */
export function callSignal(call: GrpcCall): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = (): void => {
    controller.abort();
  };
  if (call.cancelled) abort();
  else {
    let waiting = waitingOn.get(call);
    if (waiting === undefined) {
      const aborts = new Set<() => void>();
      waiting = aborts;
      waitingOn.set(call, aborts);
      call.once('cancelled', () => {
        for (const each of aborts) each();
      });
    }
    waiting.add(abort);
  }
  return {
    signal: controller.signal,
    dispose: () => {
      waitingOn.get(call)?.delete(abort);
    },
  };
}
