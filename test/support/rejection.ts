import { SluiceError } from '../../src/sdk/errors/index.js';

/** The `SluiceError` a promise rejects with; anything else it rejects with is rethrown, and success fails. */
export async function rejection(promise: Promise<unknown>): Promise<SluiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SluiceError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}
