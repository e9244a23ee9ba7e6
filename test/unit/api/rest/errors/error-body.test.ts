import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../../src/sdk/errors/index.js';
import { errorBody } from '../../../../../src/api/rest/errors/error-body.js';

const nodeFailed = new SluiceError('SLUICE_WORKFLOW_NODE_FAILED', 'workflow `w` node `n` (handler h) failed: no data', { causeCode: 'SLUICE_REQUEST_INVALID' });

describe('errorBody', () => {
  it('names the code of the error behind a failed node, in the TorchServe style', () => {
    expect(errorBody(nodeFailed, 500, 'torchserve')).toEqual({
      code: 500,
      type: 'InternalServerException',
      message: 'workflow `w` node `n` (handler h) failed: no data',
      errorCode: 'SLUICE_WORKFLOW_NODE_FAILED',
      causeCode: 'SLUICE_REQUEST_INVALID',
    });
  });

  it('names it in the OIP style too', () => {
    expect(errorBody(nodeFailed, 500, 'oip')).toEqual({ error: 'workflow `w` node `n` (handler h) failed: no data', errorCode: 'SLUICE_WORKFLOW_NODE_FAILED', causeCode: 'SLUICE_REQUEST_INVALID' });
  });

  it('has no causeCode for an error without a cause code', () => {
    expect(errorBody(new SluiceError('SLUICE_MODEL_NOT_FOUND', 'model `x` is not registered'), 404, 'oip')).toEqual({ error: 'model `x` is not registered', errorCode: 'SLUICE_MODEL_NOT_FOUND' });
  });
});
