import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GatedRuntime } from '../support/gated-runtime.js';
import { untilQueued } from '../support/queue-wait.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

const MEASUREMENTS = [[5.1, 3.5, 1.4, 0.2]];

/** One model node whose calls wait in the queue of `iris-quick` while a request the test holds runs. */
const WORKFLOWS: Readonly<Record<string, string>> = {
  impatient: `apiVersion: sluice/v1
kind: Workflow
metadata: { name: impatient }
inputs: { measurements: { datatype: FP32, shape: [-1, 4] } }
nodes:
  quick: { model: iris-quick, inputs: { input: $request.measurements }, timeoutMs: 100, retry: { attempts: 2 } }
outputs: { label: quick.label }
`,
  patient: `apiVersion: sluice/v1
kind: Workflow
metadata: { name: patient }
inputs: { measurements: { datatype: FP32, shape: [-1, 4] } }
nodes:
  quick: { model: iris-quick, inputs: { input: $request.measurements }, timeoutMs: 3600000 }
outputs: { label: quick.label }
`,
  bounded: `apiVersion: sluice/v1
kind: Workflow
metadata: { name: bounded }
responseTimeoutMs: 100
inputs: { measurements: { datatype: FP32, shape: [-1, 4] } }
nodes:
  quick: { model: iris-quick, inputs: { input: $request.measurements }, timeoutMs: 3600000 }
outputs: { label: quick.label }
`,
};

/**
 * A workflow's model call that is no longer wanted — its attempt timed out, its run passed its deadline or
 * its client went away — leaves the model's queue at once: it does not hold a place there until the model
 * is free again. `iris-quick` (one worker) is kept busy by a request held at the runtime's gate.
 */
describe('model calls of workflow runs that end while the calls wait in the queue', () => {
  let t: TestServer;
  const runtime = new GatedRuntime((path) => path.includes('/iris-quick/'));
  let blocker: Promise<unknown> | undefined;
  const pending = async (): Promise<number> =>
    ((await requestJson(`${t.management}/models/iris-quick`)).body as [{ jobQueueStatus: { pendingRequests: number } }])[0].jobQueueStatus.pendingRequests;
  const run = (name: string, headers: Record<string, string> = {}): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/wfpredict/${name}`, { method: 'POST', json: { measurements: MEASUREMENTS }, headers });

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      demoModels: ['iris-quick'],
      prepare: async (_store, dir) => {
        for (const [name, text] of Object.entries(WORKFLOWS)) await writeWorkflowFile(dir, `${name}.yaml`, text);
      },
    });
    runtime.hold();
    blocker = requestJson(`${t.inference}/v2/models/iris-quick/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: MEASUREMENTS.flat() }] },
    });
    await runtime.untilRunsStarted(1);
  });
  afterAll(async () => {
    runtime.release();
    await blocker;
    await t.close();
  });

  it('leaves no call of a node whose attempts timed out in the queue', async () => {
    expect(await run('impatient')).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_WORKFLOW_NODE_TIMEOUT' } });
    expect(await pending()).toBe(0);
  });

  it('leaves no call in the queue once the run’s deadline has passed', async () => {
    expect(await run('patient', { 'x-sluice-timeout-ms': '100' })).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED' } });
    expect(await pending()).toBe(0);
  });

  it('leaves no call in the queue once the workflow’s responseTimeoutMs has passed', async () => {
    expect(await run('bounded')).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED' } });
    expect(await pending()).toBe(0);
  });

  it('takes the run’s call out of the queue when the client goes away', async () => {
    const client = new AbortController();
    const answered = fetch(`${t.inference}/wfpredict/patient`, {
      method: 'POST',
      body: JSON.stringify({ measurements: MEASUREMENTS }),
      headers: { 'content-type': 'application/json' },
      signal: client.signal,
    }).catch(() => undefined);
    await untilQueued(t, 'iris-quick', 1);
    client.abort();
    await answered;
    // The server learns of the disconnect when the socket closes; the queue is then emptied at once.
    const before = Date.now();
    while ((await pending()) > 0 && Date.now() - before < 5_000) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await pending()).toBe(0);
  });
});
