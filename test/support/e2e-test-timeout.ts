import { jest } from '@jest/globals';

// Many end-to-end tests start a whole server inside the test: on a slow or busy 2-core machine that alone
// can take longer than Jest's default 5 s. A test that hangs still fails, later.
jest.setTimeout(30_000);
