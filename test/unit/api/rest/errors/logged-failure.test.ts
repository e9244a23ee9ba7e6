import { describe, expect, it } from '@jest/globals';
import { isLoggedFailure } from '../../../../../src/api/rest/errors/error-response.filter.js';
import { SluiceError, type ErrorCode } from '../../../../../src/sdk/errors/index.js';

describe('isLoggedFailure', () => {
  it.each<[ErrorCode, number, boolean]>([
    ['SLUICE_INTERNAL', 500, true],
    ['SLUICE_MODEL_UNLOADING', 503, true],
    ['SLUICE_QUEUE_FULL', 503, false],
    ['SLUICE_MODEL_NO_WORKERS', 503, false],
    ['SLUICE_REQUEST_INVALID', 400, false],
  ])('logs %s answered %i as a failure: %s', (code, status, logged) => {
    expect(isLoggedFailure(new SluiceError(code, 'x'), status)).toBe(logged);
  });
});
