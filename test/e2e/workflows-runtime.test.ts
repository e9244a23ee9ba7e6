import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { failingHandler, gatedTagHandler, NodeGate, silentHandler } from '../support/workflows/test-node-handlers.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

const failing = failingHandler('the test node always fails');
const silent = silentHandler();
const gate = new NodeGate();

/** Workflows whose nodes fail, never answer or wait at a gate, each in its own file. */
const WORKFLOWS: Readonly<Record<string, string>> = {
  'two-inputs': `apiVersion: sluice/v1
kind: Workflow
metadata: { name: two-inputs }
inputs:
  measurements: { datatype: FP32, shape: [-1, 4] }
  note: { type: string }
nodes:
  quick: { model: iris-quick, inputs: { input: $request.measurements } }
  echo: { handler: test/gated-tag, inputs: { tag: $request.note } }
outputs: { label: quick.label, note: echo.tag }
`,
  'any-shape': `apiVersion: sluice/v1
kind: Workflow
metadata: { name: any-shape }
inputs:
  measurements: { datatype: FP32 }
nodes:
  quick: { model: iris-quick, inputs: { input: $request.measurements } }
outputs: { label: quick.label }
`,
  failing: `apiVersion: sluice/v1
kind: Workflow
metadata: { name: failing }
nodes:
  broken: { handler: test/always-fails, retry: { attempts: 3, backoffMs: 0 } }
outputs: { text: broken.text }
`,
  'falling-back': `apiVersion: sluice/v1
kind: Workflow
metadata: { name: falling-back }
nodes:
  broken: { handler: test/always-fails, onError: { fallback: { text: "no answer today" } } }
outputs: { text: broken.text }
`,
  silent: `apiVersion: sluice/v1
kind: Workflow
metadata: { name: silent }
nodes:
  mute: { handler: test/never-answers, timeoutMs: 200 }
outputs: { text: mute.text }
`,
  patient: `apiVersion: sluice/v1
kind: Workflow
metadata: { name: patient }
nodes:
  mute: { handler: test/never-answers, timeoutMs: 3600000 }
outputs: { text: mute.text }
`,
};

describe('workflow runs that go wrong', () => {
  let t: TestServer;
  const run = (name: string, json: unknown, headers: Record<string, string> = {}): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/wfpredict/${name}`, { method: 'POST', json, headers });

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris-quick'],
      nodeHandlers: [failing, silent, gatedTagHandler(gate)],
      prepare: async (_store, dir) => {
        for (const [name, text] of Object.entries(WORKFLOWS)) await writeWorkflowFile(dir, `${name}.yaml`, text);
      },
    });
  });
  afterAll(() => t.close());

  it('runs a workflow whose inputs are all given', async () => {
    expect(await run('two-inputs', { measurements: [[5.1, 3.5, 1.4, 0.2]], note: 'hello' })).toMatchObject({
      status: 200,
      body: { label: [0], note: 'hello' },
    });
  });

  it('refuses a request that leaves out an input with 400 SLUICE_WORKFLOW_INPUT_INVALID naming it', async () => {
    expect(await run('two-inputs', { note: 'hello' })).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_WORKFLOW_INPUT_INVALID', message: 'workflow `two-inputs`: input `measurements` is missing' },
    });
  });

  it('refuses an input that is not the workflow’s with 400 SLUICE_WORKFLOW_INPUT_INVALID naming it', async () => {
    expect(await run('two-inputs', { measurements: [[5.1, 3.5, 1.4, 0.2]], note: 'hello', notes: 'hi' })).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_WORKFLOW_INPUT_INVALID', message: 'workflow `two-inputs`: there is no input `notes` (did you mean `note`?)' },
    });
  });

  it('refuses an input of the wrong type with 400 SLUICE_WORKFLOW_INPUT_INVALID naming it', async () => {
    expect(await run('two-inputs', { measurements: [[5.1, 3.5, 1.4, 0.2]], note: 42 })).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_WORKFLOW_INPUT_INVALID', message: 'workflow `two-inputs`: input `note` must be a string (got 42)' },
    });
  });

  it('refuses a tensor input of the wrong shape with 400 SLUICE_WORKFLOW_INPUT_INVALID naming it', async () => {
    expect(await run('two-inputs', { measurements: [5.1, 3.5], note: 'a note' })).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_WORKFLOW_INPUT_INVALID', message: 'workflow `two-inputs`: input `measurements` has shape [2], which does not fit [-1,4]' },
    });
  });

  it('refuses request data a model node cannot take with the model’s own 400 code, naming the node', async () => {
    expect(await run('any-shape', { measurements: [5.1, 3.5] })).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH', message: expect.stringMatching(/^workflow `any-shape` node `quick` \(model iris-quick\): input `input`/) as unknown },
    });
  });

  it('fails with 500 SLUICE_WORKFLOW_NODE_FAILED naming the node once its attempts are spent', async () => {
    expect(await run('failing', {})).toMatchObject({
      status: 500,
      body: {
        errorCode: 'SLUICE_WORKFLOW_NODE_FAILED',
        message: 'workflow `failing` node `broken` (handler test/always-fails) failed after 3 attempts: the test node always fails',
      },
    });
  });

  it('calls a failing node as many times as its retry.attempts before failing the run', async () => {
    const before = failing.calls;
    await run('failing', {});
    expect(failing.calls - before).toBe(3);
  });

  it('answers a failed node’s fallback value when its onError gives one', async () => {
    expect(await run('falling-back', {})).toMatchObject({ status: 200, body: 'no answer today' });
  });

  it.each(['maybe', '1', 'true&debug=true'])('refuses ?debug=%s with 400 SLUICE_REQUEST_INVALID rather than reading it as off', async (value) => {
    expect(await run(`falling-back?debug=${value}`, {})).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_REQUEST_INVALID', message: expect.stringMatching(/^the debug query parameter must be true or false \(once\), got /) as unknown },
    });
  });

  it('marks a node that fell back as `fallback` in the debug trace', async () => {
    expect(await run('falling-back?debug=true', {})).toMatchObject({
      status: 200,
      body: {
        outputs: { text: 'no answer today' },
        debug: {
          nodes: {
            broken: { status: 'fallback', attempts: 1, reason: 'workflow `falling-back` node `broken` (handler test/always-fails) failed: the test node always fails' },
          },
        },
      },
    });
  });

  it('answers 504 SLUICE_WORKFLOW_NODE_TIMEOUT naming a node that does not answer within its timeoutMs', async () => {
    expect(await run('silent', {})).toMatchObject({
      status: 504,
      body: {
        errorCode: 'SLUICE_WORKFLOW_NODE_TIMEOUT',
        message: 'workflow `silent` node `mute` (handler test/never-answers) did not answer within 200 ms',
      },
    });
  });

  it('cancels the node whose timeout passed and stays healthy', async () => {
    const before = silent.cancelled;
    await run('silent', {});
    await silent.untilCancelled(before + 1);
    expect(await requestJson(`${t.inference}/ping`)).toMatchObject({ status: 200, body: { status: 'Healthy' } });
    expect(await run('two-inputs', { measurements: [[5.1, 3.5, 1.4, 0.2]], note: 'still here' })).toMatchObject({ status: 200, body: { note: 'still here' } });
  });

  it('answers 504 SLUICE_WORKFLOW_DEADLINE_EXCEEDED naming the running nodes when the x-sluice-timeout-ms deadline passes', async () => {
    expect(await run('patient', {}, { 'x-sluice-timeout-ms': '100' })).toMatchObject({
      status: 504,
      body: {
        errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
        message: 'workflow `patient` did not finish within 100 ms; still running: mute',
      },
    });
  });

  it('cancels the nodes still running when the x-sluice-timeout-ms deadline passes', async () => {
    const before = silent.cancelled;
    await run('patient', {}, { 'x-sluice-timeout-ms': '100' });
    await silent.untilCancelled(before + 1);
    expect(silent.cancelled).toBe(before + 1);
  });

  it('cancels the nodes still running when the client disconnects', async () => {
    const { calls, cancelled } = silent;
    const client = new AbortController();
    const answered = fetch(`${t.inference}/wfpredict/patient`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
      signal: client.signal,
    }).catch(() => undefined);
    while (silent.calls === calls) await new Promise((resolve) => setTimeout(resolve, 5));
    client.abort();
    await answered;
    await silent.untilCancelled(cancelled + 1);
    expect(silent.cancelled).toBe(cancelled + 1);
  });

  it('refuses an x-sluice-priority that is not a positive integer with 400, as model routes do', async () => {
    expect(await run('patient', {}, { 'x-sluice-priority': 'abc' })).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_REQUEST_INVALID', message: 'the x-sluice-priority header must be an integer of at least 1, got "abc"' },
    });
  });

  it('refuses an x-sluice-timeout-ms that is not a positive integer with 400', async () => {
    expect(await run('patient', {}, { 'x-sluice-timeout-ms': 'soon' })).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_REQUEST_INVALID', message: 'the x-sluice-timeout-ms header must be an integer of at least 1, got "soon"' },
    });
  });
});

describe('a workflow run in a process of its own', () => {
  /*
   *   each (forEach over 40 items, 32 calls at once) ──▶ out
   *   a0 … a11 (in parallel) ──▶ a0 … a11
   *
   *   every call and node in flight listens to its run's abort signal: that is no leak to warn of on stderr
   */
  it('runs many calls and nodes at once without warning of a listener leak', async () => {
    const workflowModule = pathToFileURL(join(packageRoot(), 'dist', 'src', 'workflow', 'index.js')).href;
    const script = `
      import { createStaticCatalog, executeWorkflow, loadWorkflow } from ${JSON.stringify(workflowModule)};
      const pass = { name: 't/pass', inputs: ['i'], outputs: { out: {} }, run: (v) => new Promise((r) => setImmediate(() => r({ out: v.i }))) };
      const parallel = Array.from({ length: 12 }, (_, i) => 'a' + i);
      const text = JSON.stringify({
        apiVersion: 'sluice/v1', kind: 'Workflow', metadata: { name: 'many' },
        nodes: { each: { handler: 't/pass', forEach: { value: Array.from({ length: 40 }, (_, i) => i) }, inputs: { i: '$item' } },
          ...Object.fromEntries(parallel.map((id, i) => [id, { handler: 't/pass', inputs: { i: { value: i } } }])) },
        outputs: { out: 'each.out', ...Object.fromEntries(parallel.map((id) => [id, id + '.out'])) },
      });
      const { plan } = loadWorkflow(text, { file: 'many.yaml', catalog: createStaticCatalog({ handlers: [pass] }) });
      const logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => logger };
      const { outputs } = await executeWorkflow(plan, {}, { models: { infer: () => Promise.reject(new Error('no models')) }, handler: () => pass, workflow: () => undefined, logger });
      await new Promise((r) => setImmediate(r));
      console.log(outputs.out.length, Object.keys(outputs).length - 1);
    `;
    const { stdout, stderr } = await runNode(script);
    expect({ stdout, stderr }).toEqual({ stdout: '40 12\n', stderr: '' });
  });
});

/** Runs `script` as an ES module in a new Node.js process; resolves with what it printed. */
function runNode(script: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${error.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}
