import { describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { grpcFailureCode } from '../../../../../src/api/grpc/errors/grpc-failure-code.js';
import { grpcStatusErrorOf } from '../../../../../src/api/grpc/errors/grpc-status-error.js';
import { GrpcWireError } from '../../../../../src/api/grpc/transport/grpc-wire-error.js';
import { SluiceError } from '../../../../../src/sdk/errors/index.js';

describe('grpcFailureCode', () => {
  it('counts a failure under the code of the Sluice error behind its status', () => {
    const sent = grpcStatusErrorOf(new SluiceError('SLUICE_QUEUE_FULL', 'full'));
    expect(grpcFailureCode(sent.code, sent)).toBe('SLUICE_QUEUE_FULL');
  });

  it('counts a Sluice error thrown as it is under its own code', () => {
    expect(grpcFailureCode(status.NOT_FOUND, new SluiceError('SLUICE_MODEL_NOT_FOUND', 'no such model'))).toBe('SLUICE_MODEL_NOT_FOUND');
  });

  it('counts a status the transport answered itself under the code it gave', () => {
    expect(grpcFailureCode(status.RESOURCE_EXHAUSTED, new GrpcWireError('SLUICE_REQUEST_TOO_LARGE', 'too large'))).toBe('SLUICE_REQUEST_TOO_LARGE');
  });

  it('counts a call whose client went away as SLUICE_REQUEST_INVALID', () => {
    expect(grpcFailureCode(status.CANCELLED, undefined)).toBe('SLUICE_REQUEST_INVALID');
  });

  it('counts any other failure as SLUICE_INTERNAL', () => {
    expect(grpcFailureCode(status.UNKNOWN, new Error('a bug'))).toBe('SLUICE_INTERNAL');
  });
});
