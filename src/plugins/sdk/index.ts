export type { ModelDescription } from './model-description.js';
export type { Handler, HandlerContext, HandlerRequest, HandlerResult, PreparedRequest } from './handler.js';
export { decodeJsonRequestBody, type BodyForm, type DecodedJsonBody } from './json-request-body.js';
export { encodeJsonOutputs, tensorRows } from './json-response-body.js';
export { SluiceError, isSluiceError, type ErrorCode } from '../../common/errors/index.js';
export type { Logger, LogFields } from '../../common/logger.js';
export * from '../../common/tensor/index.js';
