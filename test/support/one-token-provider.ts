import { SluiceError } from '../../src/sdk/errors/index.js';
import type { AuthProvider } from '../../src/sdk/auth/auth.js';

/** An auth provider for tests: `Bearer good` passes with the inference scope, anything else is refused. */
export const oneTokenProvider: AuthProvider = {
  name: 'one-token',
  authenticate: (request) =>
    request.header('authorization') === 'Bearer good'
      ? Promise.resolve({ subject: 'tester', scopes: ['inference'] })
      : Promise.reject(new SluiceError('SLUICE_AUTH_INVALID_CREDENTIALS', 'wrong token')),
};
