import type { OipCodec } from '../../operations/oip-infer-operation.js';
import { decodeModelInferRequest, type DecodedInferRequest } from './oip-grpc-decoder.js';
import { encodeModelInferResponse } from './oip-grpc-encoder.js';
import type { ModelInferRequest, ModelInferResponse } from './oip-messages.js';

/**
 * OIP over gRPC: a `ModelInferRequest` (typed contents or `raw_input_contents`) in, a `ModelInferResponse`
 * out (raw when the request was raw). A workflow is called without a version by leaving `model_version`
 * empty.
 */
export const OIP_GRPC_CODEC: OipCodec<ModelInferRequest, DecodedInferRequest, ModelInferResponse> = {
  decode: decodeModelInferRequest,
  encode: (answerer, outputs, decoded) => encodeModelInferResponse({ name: answerer.name, version: answerer.version, id: decoded.id }, outputs, decoded.raw),
  unversioned: () => 'leave model_version empty',
};
