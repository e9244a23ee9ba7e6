import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Gate } from '../support/gate.js';
import { startLoopbackFileServer, type LoopbackFileServer } from '../support/loopback-file-server.js';
import { copyExampleWorkflows, writeWorkflowFile } from '../support/workflows/workflow-store.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/** How long a management change may take before the test calls it held up by the download. */
const HELD_UP_MS = 5000;

/** `change`, or 'still waiting' when it has not answered within {@link HELD_UP_MS}. */
function withinReason<T>(change: Promise<T>): Promise<T | 'still waiting'> {
  const blocked = new Promise<'still waiting'>((resolve) => {
    setTimeout(() => {
      resolve('still waiting');
    }, HELD_UP_MS).unref();
  });
  return Promise.race([change, blocked]);
}

describe('a workflow registration that downloads holds up no other management change', () => {
  let t: TestServer;
  let files: LoopbackFileServer;
  /** Holds the answer to every download while a test wants one in flight; it then answers 404. */
  const held = new Gate();
  const manage = (path: string, method: string): ReturnType<typeof requestJson> => requestJson(`${t.management}${path}`, { method });

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick', 'mlp'],
      config: { models: ['iris', 'iris-quick', 'mlp'], allowedUrls: ['^http://127\\.0\\.0\\.1:\\d+/held/.*$'] },
      prepare: (_store, dir) => copyExampleWorkflows(dir, ['iris-second-opinion.yaml']),
    });
    files = await startLoopbackFileServer((_req, res) => {
      void held.pass().then(() => res.writeHead(404).end());
    });
    // A TorchServe spec whose one model is downloaded from the held host.
    await writeWorkflowFile(t.dir, 'remote-spec.yaml', `models:\n  quick:\n    url: ${files.url}/held/quick.sluice\ndag:\n  quick: []\n`);
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('scales a model while a TorchServe spec’s model is still downloading', async () => {
    held.hold();
    const registering = manage('/workflows?url=remote-spec', 'POST');
    try {
      await held.untilArrived(1);
      expect(await withinReason(manage('/models/mlp?min_worker=2&synchronous=true', 'PUT'))).toMatchObject({
        status: 200,
        body: { status: 'Model "mlp" version 1.0 now has min_worker=2, max_worker=2' },
      });
    } finally {
      held.release();
    }
    expect(await registering).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED', message: expect.stringContaining(`downloading ${files.url}/held/quick.sluice failed`) },
    });
  });

  it('unregisters another workflow while a workflow file is still downloading', async () => {
    held.hold();
    const before = held.arrived;
    const registering = manage(`/workflows?url=${encodeURIComponent(`${files.url}/held/late.yaml`)}`, 'POST');
    try {
      await held.untilArrived(before + 1);
      expect(await withinReason(manage('/workflows/iris-second-opinion', 'DELETE'))).toMatchObject({
        status: 200,
        body: { status: 'Workflow "iris-second-opinion" unregistered' },
      });
    } finally {
      held.release();
    }
    expect(await registering).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED', message: expect.stringContaining(`downloading ${files.url}/held/late.yaml failed`) },
    });
  });
});
