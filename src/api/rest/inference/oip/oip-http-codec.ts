import type { OipCodec } from '../../../operations/oip-infer-operation.js';
import type { HttpBody } from '../../request-body/http-body.js';
import { decodeOipBody } from './oip-body.js';
import type { DecodedOipRequest } from './oip-request-decoder.js';
import { encodeOipResponse, type EncodedOipResponse } from './oip-response-encoder.js';

/**
 * OIP over HTTP: a JSON body, or a JSON header plus binary tensors; the answer JSON, or binary where the
 * request asks for it. A workflow is called without a version at `POST /v2/models/{workflow}/infer`.
 */
export const OIP_HTTP_CODEC: OipCodec<HttpBody, DecodedOipRequest, EncodedOipResponse> = {
  decode: ({ body, headers }) => decodeOipBody(body, headers),
  encode: (answerer, outputs, decoded) => encodeOipResponse(answerer, outputs, decoded.isBinaryOutput),
  unversioned: (name) => `send it to POST /v2/models/${name}/infer`,
};
