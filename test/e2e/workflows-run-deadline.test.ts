import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { failingHandler, silentHandler } from '../support/workflows/test-node-handlers.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

const failing = failingHandler('busy, try later');
const silent = silentHandler();

/** Workflows whose runs outlast their limit: a node that never answers, or retries with a long backoff. */
const WORKFLOWS: Readonly<Record<string, string>> = {
  bounded: `apiVersion: sluice/v1
kind: Workflow
metadata: { name: bounded }
responseTimeoutMs: 200
nodes:
  mute: { handler: test/never-answers, timeoutMs: 3600000 }
outputs: { text: mute.text }
`,
  'bounded-note': `apiVersion: sluice/v1
kind: Workflow
metadata: { name: bounded-note }
responseTimeoutMs: 200
inputs: { note: { type: string } }
nodes:
  mute: { handler: test/never-answers, timeoutMs: 3600000 }
outputs: { text: mute.text, note: $request.note }
`,
  unbounded: `apiVersion: sluice/v1
kind: Workflow
metadata: { name: unbounded }
nodes:
  mute: { handler: test/never-answers, timeoutMs: 3600000 }
outputs: { text: mute.text }
`,
  retrying: `apiVersion: sluice/v1
kind: Workflow
metadata: { name: retrying }
responseTimeoutMs: 200
nodes:
  flaky: { handler: test/always-fails, retry: { attempts: 10, backoffMs: 60000 } }
outputs: { text: flaky.text }
`,
};

/** The server's `responseTimeoutMs`: the limit of a workflow whose file sets none. */
const SERVER_RESPONSE_TIMEOUT_MS = 400;

describe('the deadline of a whole workflow run', () => {
  let t: TestServer;
  const run = (name: string, headers: Record<string, string> = {}): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/wfpredict/${name}`, { method: 'POST', json: {}, headers });

  beforeAll(async () => {
    t = await startTestServer({
      config: { responseTimeoutMs: SERVER_RESPONSE_TIMEOUT_MS },
      nodeHandlers: [failing, silent],
      prepare: async (_store, dir) => {
        for (const [name, text] of Object.entries(WORKFLOWS)) await writeWorkflowFile(dir, `${name}.yaml`, text);
      },
    });
  });
  afterAll(() => t.close());

  it('answers 504 SLUICE_WORKFLOW_DEADLINE_EXCEEDED when a run passes its workflow’s responseTimeoutMs, naming the nodes still running', async () => {
    expect(await run('bounded')).toEqual({
      status: 504,
      headers: expect.any(Object),
      body: {
        code: 504,
        type: 'RequestTimeoutException',
        errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
        message:
          "workflow `bounded` did not finish within its responseTimeoutMs of 200 ms; still running: mute; raise `responseTimeoutMs` in the workflow file, or lower its nodes' `timeoutMs`, `retry.attempts` and `retry.backoffMs`",
      },
    });
  });

  it('cancels the node still running when the run’s responseTimeoutMs passes', async () => {
    const before = silent.cancelled;
    await run('bounded');
    await silent.untilCancelled(before + 1);
    expect(silent.cancelled).toBe(before + 1);
  });

  it('ends a run of a workflow that sets no responseTimeoutMs at the server’s responseTimeoutMs', async () => {
    expect(await run('unbounded')).toMatchObject({
      status: 504,
      body: {
        errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
        message: `workflow \`unbounded\` did not finish within the server's responseTimeoutMs of ${SERVER_RESPONSE_TIMEOUT_MS} ms; still running: mute; set \`responseTimeoutMs\` in the workflow file to give its runs longer`,
      },
    });
  });

  it('ends the run at the x-sluice-timeout-ms deadline when it comes first', async () => {
    expect(await run('bounded', { 'x-sluice-timeout-ms': '50' })).toMatchObject({
      status: 504,
      body: { errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED', message: 'workflow `bounded` did not finish within 50 ms; still running: mute' },
    });
  });

  it('starts no further retry once the run’s responseTimeoutMs has passed', async () => {
    const before = failing.calls;
    const started = Date.now();
    expect(await run('retrying')).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED' } });
    expect(Date.now() - started).toBeLessThan(30_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(failing.calls).toBe(before + 1);
  });

  it('answers the Open Inference Protocol route with 504 and the same code', async () => {
    expect(await requestJson(`${t.inference}/v2/models/bounded-note/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'note', datatype: 'BYTES', shape: [1], data: ['hello'] }] },
    })).toMatchObject({
      status: 504,
      body: { errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED', error: expect.stringContaining('its responseTimeoutMs of 200 ms') },
    });
  });

  it('describes each workflow with the responseTimeoutMs its runs get', async () => {
    const limitOf = async (name: string): Promise<unknown> => ((await requestJson(`${t.management}/workflows/${name}`)).body as [{ responseTimeoutMs: number }])[0].responseTimeoutMs;
    expect([await limitOf('bounded'), await limitOf('unbounded')]).toEqual([200, SERVER_RESPONSE_TIMEOUT_MS]);
  });
});
