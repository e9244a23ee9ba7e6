import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RecordingLogger } from '../support/recording-logger.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { gatedTagHandler, NodeGate } from '../support/workflows/test-node-handlers.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** `level-0` … `level-8`: nine workflows, each calling the next; as deep as a run may nest. */
const LEVELS = Array.from({ length: 9 }, (_, i) => `level-${i}`);

/** A workflow whose one node runs workflow `next` with the request's `tag`. */
function callerOf(name: string, next: string): string {
  return `apiVersion: sluice/v1
kind: Workflow
metadata: { name: ${name} }
inputs: { tag: { type: string } }
nodes:
  call: { workflow: ${next}, inputs: { tag: $request.tag } }
outputs: { tag: call.tag }
`;
}

/** A workflow whose one node answers the request's `tag` (`test/gated-tag`, its gate left open). */
function leaf(name: string): string {
  return `apiVersion: sluice/v1
kind: Workflow
metadata: { name: ${name} }
inputs: { tag: { type: string } }
nodes:
  hold: { handler: test/gated-tag, inputs: { tag: $request.tag } }
outputs: { tag: hold.tag }
`;
}

/** Writes `level-0` → … → `level-8` (a leaf), `level-top` (calling `level-0`) and `extra` (a leaf). */
async function writeChain(dir: string): Promise<void> {
  for (const [i, name] of LEVELS.entries()) {
    const next = LEVELS[i + 1];
    await writeWorkflowFile(dir, `${name}.yaml`, next === undefined ? leaf(name) : callerOf(name, next));
  }
  await writeWorkflowFile(dir, 'level-top.yaml', callerOf('level-top', 'level-0'));
  await writeWorkflowFile(dir, 'extra.yaml', leaf('extra'));
  await writeWorkflowFile(dir, 'level-8-deeper.yaml', callerOf('level-8-deeper', 'extra'));
}

const HINT = 'each workflow node adds a level below the workflows that call this one; call a workflow that nests less deep, or merge some of the chain into one workflow';

/** The refusal of `level-top`, whose chain goes one level deeper than a run may. */
const TOP_REFUSED = `workflow level-top.yaml is invalid (1 problem):\nlevel-top.yaml:6:21: error: nodes.call.workflow: the chain of workflows level-top → ${LEVELS.join(' → ')} nests 9 levels deep, more than the 8 allowed; ${HINT}`;

const STARTUP_FAILURE = 'workflow failed to load; the others still start';

describe('how deep sub-workflows nest, at registration', () => {
  let t: TestServer;
  const register = (query: string): ReturnType<typeof requestJson> => requestJson(`${t.management}/workflows?${query}`, { method: 'POST' });
  const run = (name: string): ReturnType<typeof requestJson> => requestJson(`${t.inference}/wfpredict/${name}`, { method: 'POST', json: { tag: 'deep' } });

  beforeAll(async () => {
    t = await startTestServer({ demoModels: [], config: { workflows: [] }, nodeHandlers: [gatedTagHandler(new NodeGate())], prepare: (_store, dir) => writeChain(dir) });
    for (const name of [...LEVELS].reverse()) expect(await register(`url=${name}`)).toMatchObject({ status: 200 });
    expect(await register('url=extra')).toMatchObject({ status: 200 });
  });
  afterAll(() => t.close());

  /*
   *   level-0 ──▶ level-1 ──▶ … ──▶ level-8 (test/gated-tag)        eight levels
   */
  it('registers and runs a chain of sub-workflows 8 levels deep', async () => {
    expect(await run('level-0')).toMatchObject({ status: 200, body: 'deep' });
  });

  /*
   *   level-top ──▶ level-0 ──▶ … ──▶ level-8        nine levels
   */
  it('refuses a workflow that calls a chain one level too deep with 400 SLUICE_WORKFLOW_INVALID naming the chain', async () => {
    expect(await register('url=level-top')).toEqual({
      status: 400,
      headers: expect.any(Headers),
      body: { code: 400, type: 'BadRequestException', errorCode: 'SLUICE_WORKFLOW_INVALID', message: TOP_REFUSED, problems: [expect.objectContaining({ path: 'nodes.call.workflow' })] },
    });
    expect(await requestJson(`${t.management}/workflows/level-top`)).toMatchObject({ status: 404 });
  });

  /*
   *   level-0 ──▶ … ──▶ level-8        level-8 registered again as: call ──▶ extra        nine levels below level-0
   */
  it('refuses to replace a workflow with one that would make the chains of its callers too deep, keeping the one registered', async () => {
    expect(await register('url=level-8-deeper&workflow_name=level-8')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_WORKFLOW_INVALID',
        message: `workflow level-8-deeper.yaml is invalid (1 problem):\nlevel-8-deeper.yaml:6:21: error: nodes.call.workflow: the chain of workflows ${LEVELS.join(' → ')} → extra nests 9 levels deep, more than the 8 allowed; ${HINT}`,
      },
    });
    expect(await run('level-0')).toMatchObject({ status: 200, body: 'deep' });
  });
});

describe('how deep sub-workflows nest, at start-up from the workflow store', () => {
  let t: TestServer;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    t = await startTestServer({ demoModels: [], logger, nodeHandlers: [gatedTagHandler(new NodeGate())], prepare: (_store, dir) => writeChain(dir) });
  });
  afterAll(() => t.close());

  it('registers the chain 8 levels deep and logs the workflow that would nest deeper', async () => {
    const { body } = await requestJson(`${t.management}/workflows`);
    expect((body as { workflows: { workflowName: string }[] }).workflows.map((w) => w.workflowName)).toEqual(['extra', ...LEVELS, 'level-8-deeper']);
    expect(logger.lines.filter((line) => line.message === STARTUP_FAILURE)).toEqual([{ level: 'error', message: STARTUP_FAILURE, fields: { source: 'level-top', reason: TOP_REFUSED } }]);
  });
});

describe('how deep sub-workflows nest, when a snapshot is restored', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-workflow-nesting-'));
    const first = await startTestServer({ dir, config: { workflows: [] }, nodeHandlers: [gatedTagHandler(new NodeGate())], prepare: () => writeChain(dir) });
    try {
      for (const name of [...LEVELS].reverse()) await requestJson(`${first.management}/workflows?url=${name}`, { method: 'POST' });
    } finally {
      await first.server.stop();
    }
    // A snapshot that lists a workflow nesting too deep, as a hand-edited or older one may.
    const file = join(dir, 'snapshot.json');
    const snapshot = JSON.parse(await readFile(file, 'utf8')) as { workflows: { name: string; url: string }[] };
    snapshot.workflows.push({ name: 'level-top', url: 'level-top' });
    await writeFile(file, JSON.stringify(snapshot));
  });
  afterAll(() => cleanup());

  it('restores the chain 8 levels deep and logs the workflow that would nest deeper', async () => {
    const logger = new RecordingLogger();
    const second = await startTestServer({ dir, logger, config: { workflows: [] }, nodeHandlers: [gatedTagHandler(new NodeGate())] });
    try {
      const { body } = await requestJson(`${second.management}/workflows`);
      expect((body as { workflows: { workflowName: string }[] }).workflows.map((w) => w.workflowName)).toEqual(LEVELS);
      expect(logger.lines.filter((line) => line.message === STARTUP_FAILURE)).toEqual([{ level: 'error', message: STARTUP_FAILURE, fields: { source: 'level-top', reason: TOP_REFUSED } }]);
    } finally {
      await second.server.stop();
    }
  });
});
