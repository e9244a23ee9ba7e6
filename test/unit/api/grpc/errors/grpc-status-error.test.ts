import { describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { SluiceError } from '../../../../../src/sdk/errors/index.js';
import { grpcStatusErrorOf } from '../../../../../src/api/grpc/errors/grpc-status-error.js';

describe('grpcStatusErrorOf', () => {
  it('carries the code of the error behind a failed node in sluice-cause-code', () => {
    const failure = grpcStatusErrorOf(new SluiceError('SLUICE_WORKFLOW_NODE_FAILED', 'node failed', { causeCode: 'SLUICE_REQUEST_INVALID' }));
    expect({ code: failure.code, errorCode: failure.metadata.get('sluice-error-code'), causeCode: failure.metadata.get('sluice-cause-code') }).toEqual({
      code: status.INTERNAL,
      errorCode: ['SLUICE_WORKFLOW_NODE_FAILED'],
      causeCode: ['SLUICE_REQUEST_INVALID'],
    });
  });

  it('sends no sluice-cause-code for an error without one', () => {
    expect(grpcStatusErrorOf(new SluiceError('SLUICE_MODEL_NOT_FOUND', 'no model')).metadata.get('sluice-cause-code')).toEqual([]);
  });
});
