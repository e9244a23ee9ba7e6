import { SluiceError } from '../../../sdk/errors/index.js';
import type { HandlerRequest } from '../../../sdk/handler/handler.js';
import { handlerRequestFromBytes } from '../../bodies/handler-body.js';
import type { PredictionAnswer, PredictionsCodec } from '../../operations/predictions-operation.js';

/** `PredictionsRequest` as it looks in JavaScript. */
export interface PredictionsRequest {
  readonly model_name: string;
  readonly model_version: string;
  readonly input: Readonly<Record<string, Uint8Array>>;
  /** Set by a client of sequences; echoed in the answers of `StreamPredictions2`. */
  readonly sequenceId?: string;
}

/** `PredictionResponse`, as Sluice writes it. */
export interface PredictionResponse {
  readonly prediction: Uint8Array;
  readonly sequenceId?: string;
  /** A request of `StreamPredictions2` that failed: its status, the stream going on. */
  readonly status?: { readonly code: number; readonly message: string; readonly details: readonly unknown[] };
}

/** A `PredictionsRequest`'s `input`: the request body, by entry. */
export type PredictionsInput = Readonly<Record<string, Uint8Array>>;

/**
 * The request body a handler sees: one `input` entry (TorchServe clients send `data`) is the whole body,
 * JSON when it looks like JSON and bytes otherwise, as REST reads a body without a media type; several
 * entries make an object of such values, keyed by entry.
 */
export function handlerRequestOfInput(input: PredictionsInput): HandlerRequest {
  const entries = Object.entries(input);
  const [first, ...more] = entries;
  if (first === undefined) throw new SluiceError('SLUICE_REQUEST_INVALID', 'the request has no input; put the request body in input["data"]');
  if (more.length === 0) return handlerRequestFromBytes(first[1], '');
  return { body: Object.fromEntries(entries.map(([key, bytes]) => [key, handlerRequestFromBytes(bytes, '').body])), contentType: 'application/json' };
}

/** The body an envelope decodes: `input["data"]` (or `body`, or the only entry), as TorchServe clients send it. */
function envelopeBody(input: PredictionsInput): Uint8Array {
  const body = input['data'] ?? input['body'] ?? (Object.keys(input).length === 1 ? Object.values(input)[0] : undefined);
  if (body === undefined) throw new SluiceError('SLUICE_REQUEST_INVALID', 'a model with an envelope takes its body in input["data"]');
  return body;
}

/** A TorchServe prediction body over gRPC: the `input` map of a `PredictionsRequest`. */
export const PREDICTIONS_GRPC_CODEC: PredictionsCodec<PredictionsInput> = {
  handlerRequest: handlerRequestOfInput,
  envelopeRequest: (input) => ({ body: envelopeBody(input), contentType: '' }),
};

/** An answer as prediction bytes: bytes as they are, text as UTF-8, anything else as JSON. */
export function predictionBytes(answer: unknown): Uint8Array {
  if (answer instanceof Uint8Array) return answer;
  return Buffer.from(typeof answer === 'string' ? answer : JSON.stringify(answer ?? null), 'utf8');
}

/** A prediction's answer as a `PredictionResponse`: the handler's or workflow's answer, or the envelope's body. */
export function predictionResponse(answer: PredictionAnswer): PredictionResponse {
  return { prediction: predictionBytes(answer.kind === 'answer' ? answer.value : answer.response.body) };
}
