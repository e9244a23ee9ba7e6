import type { IncomingMessage } from 'node:http';
import type { SluiceError } from '../../../sdk/errors/index.js';

/**
 * A request Node's HTTP parser refused (malformed HTTP, headers over the limit) or whose head did not
 * arrive in time, as it is answered, counted and logged.
 */
export interface ParserRefusal {
  /** The status it is answered with. */
  readonly status: number;
  readonly error: SluiceError;
  /** Node's code for the fault (`HPE_INVALID_METHOD`, `ERR_HTTP_REQUEST_TIMEOUT`…), when it is one. */
  readonly parserError: string | undefined;
  /** The client's address, read before the connection is closed. */
  readonly remoteAddress: string | undefined;
}

/** Requests being served when the parser refused the rest of them (a malformed chunk in the body). */
const refusedInFlight = new WeakMap<IncomingMessage, ParserRefusal>();

/**
 * Tells the request observer that `request`, already being served, is answered with `refusal`: its
 * access-log line shows the refusal rather than a client that left, and the failure its handling then
 * meets (a body that never ends) is not counted a second time.
 */
export function markRefusedInFlight(request: IncomingMessage, refusal: ParserRefusal): void {
  refusedInFlight.set(request, refusal);
}

/** The refusal `request` was answered with while it was being served, if any (see {@link markRefusedInFlight}). */
export function refusalInFlight(request: IncomingMessage): ParserRefusal | undefined {
  return refusedInFlight.get(request);
}

/** The fields a refusal adds to its access-log line: Node's code for the fault and the client's address. */
export function addRefusalLogFields(fields: Record<string, unknown>, refusal: ParserRefusal): void {
  if (refusal.parserError !== undefined) fields['parserError'] = refusal.parserError;
  fields['remoteAddress'] = refusal.remoteAddress ?? null;
}
