import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { makeUnreadableDirectory } from '../support/unreadable-directory.js';

describe('a model store entry the server may not read', () => {
  let server: TestServer;
  let restore: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    server = await startTestServer({
      config: { models: 'all' },
      prepare: async (store) => {
        restore = await makeUnreadableDirectory(join(store, 'locked'));
      },
    });
  });
  afterAll(async () => {
    await restore();
    await server.close();
  });

  it('does not stop start-up: the other models of the store serve', async () => {
    expect(await requestJson(`${server.management}/models`)).toMatchObject({
      status: 200,
      body: { models: [{ modelName: 'iris' }, { modelName: 'mlp' }] },
    });
  });

  it('is refused at registration with SLUICE_MODEL_LOAD_FAILED saying what cannot be read, by its place in the model store', async () => {
    expect(await requestJson(`${server.management}/models?url=locked`, { method: 'POST' })).toMatchObject({
      status: 500,
      body: {
        errorCode: 'SLUICE_MODEL_LOAD_FAILED',
        message: expect.stringMatching(
          /^locked\/model\.yaml: cannot be read \(EACCES: permission denied, [a-z]+ 'locked[^']*'\); make the model directory and its files readable by the user Sluice runs as$/,
        ) as unknown,
      },
    });
  });
});
