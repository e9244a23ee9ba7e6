import { describe, expect, it } from '@jest/globals';
import { GRPC_STATUS, grpcStatusOf, httpStatusOf } from '../../../../src/api/errors/error-mapping.js';
import { ERROR_CATEGORIES, ERROR_CODES, type ErrorCategory, type ErrorCode } from '../../../../src/sdk/errors/index.js';

const codes = Object.keys(ERROR_CODES) as ErrorCode[];
const httpOf = (code: ErrorCode): number => httpStatusOf(code, ERROR_CODES[code].category);

describe('httpStatusOf', () => {
  it.each(codes)('maps %s to an HTTP error status', (code) => {
    const status = httpOf(code);
    expect(status >= 400 && status <= 599).toBe(true);
  });

  const byCategory: ReadonlyArray<readonly [ErrorCategory, number]> = [
    ['INVALID_ARGUMENT', 400],
    ['UNAUTHENTICATED', 401],
    ['PERMISSION_DENIED', 403],
    ['NOT_FOUND', 404],
    ['ALREADY_EXISTS', 409],
    ['FAILED_PRECONDITION', 409],
    ['RESOURCE_EXHAUSTED', 429],
    ['DEADLINE_EXCEEDED', 504],
    ['UNAVAILABLE', 503],
    ['UNIMPLEMENTED', 501],
    ['INTERNAL', 500],
  ];
  it.each(byCategory)('maps the category %s to %i when the code has no override', (category, status) => {
    expect(httpStatusOf('SLUICE_INTERNAL', category)).toBe(status);
  });

  const byCode: ReadonlyArray<readonly [ErrorCode, number]> = [
    ['SLUICE_REQUEST_TOO_LARGE', 413],
    ['SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE', 415],
    ['SLUICE_METHOD_NOT_ALLOWED', 405],
    ['SLUICE_QUEUE_FULL', 503],
    ['SLUICE_RESPONSE_TIMEOUT', 504],
    ['SLUICE_MODEL_NOT_FOUND', 404],
    ['SLUICE_MODEL_VERSION_NOT_FOUND', 404],
    ['SLUICE_ROUTE_NOT_FOUND', 404],
    ['SLUICE_MODEL_NO_WORKERS', 503],
    ['SLUICE_MODEL_UNLOADING', 503],
    ['SLUICE_MODEL_ALREADY_REGISTERED', 409],
    ['SLUICE_MODEL_IN_USE', 409],
    ['SLUICE_MANAGEMENT_URL_NOT_ALLOWED', 403],
    ['SLUICE_TENSOR_SHAPE_MISMATCH', 400],
    ['SLUICE_MODEL_LOAD_FAILED', 500],
    ['SLUICE_INFERENCE_FAILED', 500],
  ];
  it.each(byCode)('maps %s to %i', (code, status) => {
    expect(httpOf(code)).toBe(status);
  });

  it('lets a code override win over its category', () => {
    expect(httpStatusOf('SLUICE_REQUEST_TOO_LARGE', 'RESOURCE_EXHAUSTED')).toBe(413);
  });

  it('answers headers over the limit with 431 and a request not received in time with 408, whatever the code', () => {
    expect([httpStatusOf('SLUICE_REQUEST_TOO_LARGE', 'RESOURCE_EXHAUSTED', 'headers-too-large'), httpStatusOf('SLUICE_REQUEST_INVALID', 'INVALID_ARGUMENT', 'receive-timeout')]).toEqual([
      431, 408,
    ]);
  });
});

describe('grpcStatusOf', () => {
  it.each([...ERROR_CATEGORIES])('maps %s to the gRPC code of the same name', (category) => {
    expect(grpcStatusOf(category)).toBe(GRPC_STATUS[category]);
  });

  it.each(codes)('gives %s a gRPC error code', (code) => {
    const status = grpcStatusOf(ERROR_CODES[code].category);
    expect(status > GRPC_STATUS.OK && status <= GRPC_STATUS.UNAUTHENTICATED).toBe(true);
  });

  it('answers a call the transport cannot read with INTERNAL and one the method cannot take with UNIMPLEMENTED, as grpc-js does', () => {
    expect([grpcStatusOf('INVALID_ARGUMENT', 'unreadable-call'), grpcStatusOf('NOT_FOUND', 'unsupported-call')]).toEqual([GRPC_STATUS.INTERNAL, GRPC_STATUS.UNIMPLEMENTED]);
  });

  it('uses the numeric values of the gRPC specification', () => {
    expect(GRPC_STATUS).toMatchObject({ INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, NOT_FOUND: 5, RESOURCE_EXHAUSTED: 8, INTERNAL: 13, UNAVAILABLE: 14 });
  });
});
