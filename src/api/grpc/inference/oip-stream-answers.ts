import type { GrpcCall } from '../calls/grpc-call.js';
import type { ModelInferRequest, ModelStreamInferResponse } from './oip-messages.js';

/**
 * The `ModelStreamInfer` answer of a request that failed: `message` in `error_message`, the Sluice error
 * `code` (when it has one) in the `sluice_error_code` parameter, and `triton_final_response`.
 */
export function streamErrorAnswer(request: ModelInferRequest, message: string, code: string | undefined, final = true): ModelStreamInferResponse {
  return {
    error_message: message,
    infer_response: {
      model_name: request.model_name,
      model_version: request.model_version,
      id: request.id,
      outputs: [],
      parameters: { ...(code === undefined ? {} : { sluice_error_code: { string_param: code } }), triton_final_response: { bool_param: final } },
    },
  };
}

/**
 * `answer`, or an error answer for its request when it serializes to more than the call's
 * `grpc.maxSendMessageBytes`: the transport would end the whole stream RESOURCE_EXHAUSTED on writing it,
 * and a request that fails on a stream fails alone. (The call keeps the bytes it measured for the write.)
 */
export function withinSendLimit(answer: ModelStreamInferResponse, request: ModelInferRequest, call: GrpcCall, final: boolean): ModelStreamInferResponse {
  const limit = call.maxSendMessageBytes;
  const size = limit === undefined ? undefined : call.serializedSize?.(answer);
  if (limit === undefined || size === undefined || size <= limit) return answer;
  return streamErrorAnswer(
    request,
    `the answer to this request is ${String(size)} bytes, over grpc.maxSendMessageBytes (${String(limit)}); ask for fewer outputs or a smaller batch, or raise grpc.maxSendMessageBytes (and the client's receive limit)`,
    'SLUICE_RESPONSE_TOO_LARGE',
    final,
  );
}

/** The request parameter with which a Triton client asks for an empty final answer after a request's answers. */
export const EMPTY_FINAL_PARAMETER = 'triton_enable_empty_final_response';

/** Whether `request` asks for an empty final answer ({@link EMPTY_FINAL_PARAMETER}), as Triton's clients of decoupled models do. */
export function wantsEmptyFinal(request: ModelInferRequest): boolean {
  return request.parameters[EMPTY_FINAL_PARAMETER]?.bool_param === true;
}

/**
 * The empty answer that ends a request's answers for a client that asked for one ({@link wantsEmptyFinal}):
 * no outputs, `triton_final_response` true, the answered model and version and the request's `id`.
 */
export function emptyFinalAnswer(request: ModelInferRequest, model: string, version: string): ModelStreamInferResponse {
  return {
    error_message: '',
    infer_response: { model_name: model, model_version: version, id: request.id, outputs: [], parameters: { triton_final_response: { bool_param: true } } },
  };
}
