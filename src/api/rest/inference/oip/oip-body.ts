import type { IncomingHttpHeaders } from 'node:http';
import { SluiceError } from '../../../../sdk/errors/index.js';
import { charsetOf, refuseNonUtf8Charset } from '../../../../sdk/bodies/body-charset.js';
import { LOOSE_TEXT_TYPES } from '../../../bodies/handler-body.js';
import { jsonBodyText, parseJson } from '../../../../sdk/bodies/json-text.js';
import { isJsonMediaType } from '../../../bodies/json-body.js';
import { mediaTypeOfHeader } from '../../request-body/request-body.js';
import { decodeOipRequest, parseBinaryHeader, splitBinaryBody, type DecodedOipRequest } from './oip-request-decoder.js';

/** Header that announces the JSON header's length in the binary tensor extension. */
export const HEADER_LENGTH = 'inference-header-content-length';

/**
 * An OIP infer request from its body bytes and headers: a JSON document, or with
 * `Inference-Header-Content-Length` a JSON header followed by binary tensors. A JSON document declared in a
 * charset other than UTF-8 is refused (415). JSON sent as text/plain or form data (as `curl -d` sends it,
 * and as Triton's and KServe's own examples do) is read as JSON too; other media types are refused (415).
 */
export function decodeOipBody(body: Buffer, headers: IncomingHttpHeaders): DecodedOipRequest {
  const headerLength = headers[HEADER_LENGTH];
  if (typeof headerLength === 'string') {
    const { header, binary } = splitBinaryBody(body, headerLength);
    return decodeOipRequest(parseBinaryHeader(header, headerLength), binary);
  }
  const mediaType = mediaTypeOfHeader(headers['content-type']);
  if (!LOOSE_TEXT_TYPES.has(mediaType) && !isJsonMediaType(mediaType)) {
    throw new SluiceError(
      'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
      `an OIP infer request is JSON (Content-Type: application/json), or a JSON header plus binary tensors with the Inference-Header-Content-Length header; got ${mediaType}`,
    );
  }
  refuseNonUtf8Charset(charsetOf(headers['content-type']));
  return decodeOipRequest(parseJson(jsonBodyText(body)));
}
