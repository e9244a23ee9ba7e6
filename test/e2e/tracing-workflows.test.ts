import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { NodeHandler } from '../../src/sdk/node-handler/node-handler.js';
import { childrenOf, only, SpanRecorder, traceparent } from '../support/telemetry/span-recorder.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { failingHandler } from '../support/workflows/test-node-handlers.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

/** `test/flaky`: the first call fails, the next ones answer their `tag` input. */
function flakyHandler(): NodeHandler {
  let calls = 0;
  return {
    name: 'test/flaky',
    inputs: ['tag'],
    outputs: { tag: {} },
    run(inputs) {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('the first call of a flaky node fails')) : Promise.resolve({ tag: inputs['tag'] });
    },
  };
}

/*
 *   request ──┬── quick (model iris-quick)
 *             ├── flaky (handler, fails once, retried)
 *             └── never (model iris, when: false → skipped)
 */
const TRACED = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: traced }
inputs:
  measurements: { datatype: FP32, shape: [-1, 4] }
  note: { type: string }
nodes:
  quick: { model: iris-quick, inputs: { input: $request.measurements } }
  flaky: { handler: test/flaky, inputs: { tag: $request.note }, retry: { attempts: 3, backoffMs: 0 } }
  never: { model: iris, when: "false", inputs: { input: $request.measurements } }
outputs: { label: never.label ?? quick.label, tag: flaky.tag }
`;

const BROKEN = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: broken }
nodes:
  broken: { handler: test/always-fails, retry: { attempts: 2, backoffMs: 0 } }
outputs: { text: broken.text }
`;

describe('traces of workflow runs', () => {
  const recorder = new SpanRecorder();
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick'],
      telemetry: recorder.telemetry,
      nodeHandlers: [flakyHandler(), failingHandler('the test node always fails')],
      prepare: async (_store, dir) => {
        await writeWorkflowFile(dir, 'traced.yaml', TRACED);
        await writeWorkflowFile(dir, 'broken.yaml', BROKEN);
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await recorder.telemetry.shutdown();
  });

  it('nests a workflow.run span with one child per node: parallel, retried and skipped', async () => {
    const answer = await requestJson(`${t.inference}/wfpredict/traced`, {
      method: 'POST',
      json: { measurements: [[5.1, 3.5, 1.4, 0.2]], note: 'hello' },
      headers: { traceparent: traceparent(TRACE_ID, '00f067aa0ba902b7') },
    });
    expect(answer).toMatchObject({ status: 200, body: { tag: 'hello' } });
    const spans = await recorder.until((s) => s.some((span) => span.name === 'POST /wfpredict/:name'));
    const server = only(spans, 'POST /wfpredict/:name');
    const run = only(childrenOf(spans, server), 'workflow.run');
    expect(run.attributes).toMatchObject({ 'sluice.workflow': 'traced', 'sluice.workflow.depth': 0 });
    const nodes: Record<string, ReadableSpan> = Object.fromEntries(childrenOf(spans, run).map((s) => [String(s.attributes['sluice.workflow.node.id']), s]));
    expect(Object.keys(nodes).sort()).toEqual(['flaky', 'never', 'quick']);
    expect(nodes['quick']!.attributes).toMatchObject({ 'sluice.workflow.node.kind': 'model', 'sluice.workflow.node.status': 'ok', 'sluice.workflow.node.attempts': 1 });
    expect(nodes['flaky']!.attributes).toMatchObject({ 'sluice.workflow.node.kind': 'handler', 'sluice.workflow.node.status': 'ok', 'sluice.workflow.node.attempts': 2 });
    expect(nodes['never']!.attributes).toMatchObject({ 'sluice.workflow.node.status': 'skipped', 'sluice.workflow.node.skipped': true });
    // quick and flaky both started before either ended: they ran in parallel.
    const [quick, flaky] = [nodes['quick']!, nodes['flaky']!];
    const startOf = (s: ReadableSpan): number => s.startTime[0] * 1e9 + s.startTime[1];
    const endOf = (s: ReadableSpan): number => s.endTime[0] * 1e9 + s.endTime[1];
    expect(Math.max(startOf(quick), startOf(flaky))).toBeLessThanOrEqual(Math.min(endOf(quick), endOf(flaky)));
    // The model call of a node runs under it: its queue wait is the node's child.
    expect(childrenOf(spans, quick).map((s) => s.name)).toEqual(['queue.wait']);
  });

  it('records the error code of a refused workflow request without failing its server span', async () => {
    recorder.reset();
    const answer = await requestJson(`${t.inference}/wfpredict/traced`, {
      method: 'POST',
      json: { measurements: [[5.1, 3.5, 1.4]], note: 'hello' },
    });
    expect(answer.status).toBe(400);
    const spans = await recorder.until((s) => s.some((span) => span.name === 'POST /wfpredict/:name'));
    const server = only(spans, 'POST /wfpredict/:name');
    expect(server.attributes['sluice.error.code']).toBe('SLUICE_WORKFLOW_INPUT_INVALID');
    // A client error is not a server failure (HTTP semantic conventions).
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks a node that failed for good, its run and the request span ERROR with the exception', async () => {
    recorder.reset();
    const answer = await requestJson(`${t.inference}/wfpredict/broken`, { method: 'POST', json: {} });
    expect(answer.status).toBeGreaterThanOrEqual(500);
    const spans = await recorder.until((s) => s.some((span) => span.name === 'POST /wfpredict/:name'));
    const server = only(spans, 'POST /wfpredict/:name');
    const run = only(childrenOf(spans, server), 'workflow.run');
    const node = only(childrenOf(spans, run), 'workflow.node broken');
    expect(node.attributes).toMatchObject({ 'sluice.workflow.node.failed': true, 'sluice.workflow.node.attempts': 2 });
    for (const span of [node, run, server]) {
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.events.map((e) => e.name)).toContain('exception');
    }
  });
});
