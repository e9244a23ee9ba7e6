import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GatedRuntime } from '../support/gated-runtime.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { untilQueued } from '../support/queue-wait.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** $request.x ──▶ echo (identity, 3 priority levels, one request per run) ──▶ y */
const ECHOING = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: echoing }
inputs: { x: { datatype: FP32, shape: [-1, 1] } }
nodes:
  echo: { model: echo, inputs: { input: $request.x } }
outputs: { y: echo.output }
`;

/** $request.x ──▶ inner (the workflow above, as a sub-workflow) ──▶ y */
const NESTING = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: nesting }
inputs: { x: { datatype: FP32, shape: [-1, 1] } }
nodes:
  inner: { workflow: echoing, inputs: { x: $request.x } }
outputs: { y: inner.y }
`;

/**
 * A workflow request's priority (`x-sluice-priority`, OIP `parameters.priority`) goes with every model call
 * of its run, as a model request's does. `echo` runs one request at a time and waits at a gate the test
 * opens; requests are queued one after another, so the order in which they run shows their priorities.
 * Each call is told apart by its rows.
 */
describe('the priority of workflow requests', () => {
  let t: TestServer;
  const runtime = new GatedRuntime((path) => path.includes('/echo/'));
  const rows = (count: number): number[][] => Array.from({ length: count }, (_, i) => [i]);
  const wfpredict = (workflow: string, count: number, headers: Record<string, string> = {}): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/wfpredict/${workflow}`, { method: 'POST', json: { x: rows(count) }, headers });
  /**
   * Holds `echo` busy with one request, sends each request behind it once the one before is queued, then
   * answers the rows of each later run, in run order, and the answers.
   */
  const runOrder = async (senders: readonly (() => Promise<unknown>)[]): Promise<{ order: number[]; answers: unknown[] }> => {
    runtime.hold();
    const blocker = requestJson(`${t.inference}/v2/models/echo/infer`, { method: 'POST', json: { inputs: [{ name: 'input', shape: [1, 1], datatype: 'FP32', data: [0] }] } });
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    const before = runtime.runRows.length;
    const answers: Promise<unknown>[] = [];
    for (const send of senders) {
      answers.push(send());
      await untilQueued(t, 'echo', answers.length);
    }
    runtime.release();
    await blocker;
    const settled = await Promise.all(answers);
    return { order: runtime.runRows.slice(before), answers: settled };
  };

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      prepare: async (store, dir) => {
        await addStoreModel(store, 'echo', (d) => writeIdentityModel(d, 'FP32', [-1, 1]), {
          name: 'echo',
          version: '1',
          batching: { maxBatchSize: 1, priorityLevels: 3 },
        });
        await writeWorkflowFile(dir, 'echoing.yaml', ECHOING);
        await writeWorkflowFile(dir, 'nesting.yaml', NESTING);
      },
    });
  });
  afterAll(async () => {
    runtime.release();
    await t.close();
  });

  it('runs the model call of a higher-priority /wfpredict request before an earlier one of lower priority', async () => {
    const { order, answers } = await runOrder([() => wfpredict('echoing', 2, { 'x-sluice-priority': '3' }), () => wfpredict('echoing', 3, { 'x-sluice-priority': '1' })]);
    expect(order).toEqual([3, 2]);
    expect(answers).toMatchObject([
      { status: 200, body: rows(2) },
      { status: 200, body: rows(3) },
    ]);
  });

  it('gives the priority to the model calls of sub-workflows too', async () => {
    const { order } = await runOrder([() => wfpredict('nesting', 2, { 'x-sluice-priority': '3' }), () => wfpredict('nesting', 3, { 'x-sluice-priority': '1' })]);
    expect(order).toEqual([3, 2]);
  });

  it('takes the priority from OIP parameters on /v2/models/{workflow}/infer', async () => {
    const oip = (count: number, priority: number): Promise<unknown> =>
      requestJson(`${t.inference}/v2/models/echoing/infer`, {
        method: 'POST',
        json: { parameters: { priority }, inputs: [{ name: 'x', shape: [count, 1], datatype: 'FP32', data: rows(count).flat() }] },
      });
    const { order } = await runOrder([() => oip(2, 3), () => oip(3, 1)]);
    expect(order).toEqual([3, 2]);
  });

  it('runs a priority beyond a model’s levels at its lowest level instead of failing the run', async () => {
    const { order, answers } = await runOrder([() => wfpredict('echoing', 2, { 'x-sluice-priority': '9' }), () => wfpredict('echoing', 3, { 'x-sluice-priority': '3' })]);
    expect(order).toEqual([2, 3]);
    expect(answers).toMatchObject([{ status: 200 }, { status: 200 }]);
  });
});
