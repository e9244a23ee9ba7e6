import type { Metadata } from '@grpc/grpc-js';
import type { Cancellation, RequestBudget } from '../../../budget/request-budget.js';
import { PRIORITY_HEADER, TIMEOUT_HEADER, budgetOfKnobs } from '../../request-knobs/knob-values.js';

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

/** A call's budget and the means to let go of its cancellation once the request is answered. */
export interface CallBudget {
  readonly budget: RequestBudget;
  /** Stops listening for the call's cancellation on this request's behalf; call it once the request is answered. */
  readonly dispose: () => void;
}

/**
 * A request's budget, made at the edge of its call: the call's deadline (the request's hard deadline),
 * the `x-sluice-priority` / `x-sluice-timeout-ms` metadata as REST reads the headers (a bad one is
 * refused with `INVALID_ARGUMENT`), and the call's cancellation, both looked at (`cancelled`) and told (a
 * signal, so that a queued request of a cancelled call leaves the queue at once). Every request of a
 * stream has its own; `dispose` it once answered.
 */
export function callBudget(call: GrpcCall): CallBudget {
  const metadata = call.metadata;
  const knobs = { priority: metadataText(metadata, PRIORITY_HEADER), timeout: metadataText(metadata, TIMEOUT_HEADER) };
  const told = callSignal(call);
  const cancellation: Cancellation = { isCancelled: () => call.cancelled, signal: told.signal, watch: () => told.signal };
  let budget: RequestBudget;
  try {
    budget = budgetOfKnobs(knobs, 'metadata', { deadlineMs: deadlineMsOf(call), cancellation });
  } catch (error) {
    told.dispose();
    throw error;
  }
  return {
    budget,
    dispose: () => {
      told.dispose();
    },
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
