import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { formatWorkflowProblem, type WorkflowProblem } from '../../src/workflow/index.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { gatedTagHandler, NodeGate } from '../support/workflows/test-node-handlers.js';
import { copyExampleWorkflows, workflowStoreOf, writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** Workflow files that must be refused, each with the exact message of its refusal in `<name>.expected.txt`. */
const INVALID_DIR = join(packageRoot(), 'test', 'support', 'workflows', 'invalid');
const INVALID = readdirSync(INVALID_DIR)
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => name.slice(0, -'.yaml'.length))
  .sort();

const CLEAR = [[5.1, 3.5, 1.4, 0.2]];

/** A workflow whose one node runs `iris-second-opinion`. */
const CALLER = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: caller }
inputs: { measurements: { datatype: FP32, shape: [-1, 4] } }
nodes:
  opinion: { workflow: iris-second-opinion, inputs: { measurements: $request.measurements } }
outputs: { label: opinion.label }
`;

/** A workflow of one `test/gated-tag` node answering `version` as its `tag`. */
function taggedWorkflow(version: string): string {
  return `apiVersion: sluice/v1
kind: Workflow
metadata: { name: tagged, version: "${version}" }
nodes:
  hold: { handler: test/gated-tag, inputs: { tag: { value: v${version} } } }
outputs: { tag: hold.tag }
`;
}

describe('registering workflows from the workflow store', () => {
  let t: TestServer;
  const gate = new NodeGate();
  const register = (query: string): ReturnType<typeof requestJson> => requestJson(`${t.management}/workflows?${query}`, { method: 'POST' });
  const run = (name: string, json: unknown): ReturnType<typeof requestJson> => requestJson(`${t.inference}/wfpredict/${name}`, { method: 'POST', json });

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick'],
      config: { workflows: [] },
      nodeHandlers: [gatedTagHandler(gate)],
      prepare: async (_store, dir) => {
        await copyExampleWorkflows(dir, ['iris-second-opinion.yaml']);
        await writeWorkflowFile(dir, 'caller.yaml', CALLER);
        for (const name of INVALID) await copyFile(join(INVALID_DIR, `${name}.yaml`), join(workflowStoreOf(dir), `${name}.yaml`));
      },
    });
  });
  afterAll(() => t.close());

  it('registers a workflow of the store by its name', async () => {
    expect(await register('url=iris-second-opinion')).toMatchObject({
      status: 200,
      body: { status: 'Workflow "iris-second-opinion" version 1.0 registered' },
    });
    expect(await run('iris-second-opinion', { measurements: CLEAR })).toMatchObject({ status: 200, body: { label: [0] } });
  });

  it('registers a workflow under the name workflow_name gives', async () => {
    expect(await register('url=iris-second-opinion.yaml&workflow_name=second-look')).toMatchObject({
      status: 200,
      body: { status: 'Workflow "second-look" version 1.0 registered' },
    });
    expect((await requestJson(`${t.management}/workflows/second-look`)).body).toMatchObject([
      { workflowName: 'second-look', workflowUrl: 'iris-second-opinion.yaml', workflowVersion: '1.0' },
    ]);
    expect(await run('second-look', { measurements: CLEAR })).toMatchObject({ status: 200, body: { label: [0] } });
  });

  it.each(INVALID)('refuses %s.yaml with 400 SLUICE_WORKFLOW_INVALID and its problems at their positions', async (name) => {
    const message = readFileSync(join(INVALID_DIR, `${name}.expected.txt`), 'utf8').trimEnd();
    const answer = await register(`url=${name}`);
    expect(answer).toEqual({
      status: 400,
      headers: expect.any(Headers),
      body: { code: 400, type: 'BadRequestException', errorCode: 'SLUICE_WORKFLOW_INVALID', message, problems: expect.any(Array) },
    });
    const { problems } = answer.body as { problems: WorkflowProblem[] };
    expect(problems.filter((problem) => problem.severity === 'error').map(formatWorkflowProblem)).toEqual(
      message.split('\n').filter((line) => line.includes(': error: ')),
    );
  });

  it('answers a 1 MiB file of unknown keys in a few kilobytes: 20 problems, each key cut short, and how many more', async () => {
    const keys = Array.from({ length: 500 }, (_, i) => `${String(i).padStart(3, '0')}${'k'.repeat(2080)}`);
    await writeWorkflowFile(t.dir, 'huge.yaml', `${readFileSync(join(INVALID_DIR, 'unknown-key.yaml'), 'utf8')}${keys.map((key) => `${key}: 1\n`).join('')}`);
    const answer = await register('url=huge');
    const shown = (key: string): string => `${key.slice(0, 39)}…`;
    const unknown = (key: string, line: number): string =>
      `huge.yaml:${line}:1: error: ${shown(key)}: unknown key \`${shown(key)}\`; allowed here: apiVersion, kind, metadata, responseTimeoutMs, defaults, inputs, nodes, outputs`;
    expect(answer).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_WORKFLOW_INVALID',
        message: [
          'workflow huge.yaml is invalid (501 problems):',
          'huge.yaml:6:12: error: nodes.quick.modle: unknown key `modle`; did you mean `model`?',
          ...keys.slice(0, 19).map((key, i) => unknown(key, 8 + i)),
          '… and 481 more',
        ].join('\n'),
      },
    });
    expect(JSON.stringify(answer.body).length).toBeLessThan(16_384);
  });

  it.each([
    ['empty', ''],
    ['with a space and a bang', 'bad name!'],
    ['starting with a dash', '-x'],
    ['with a slash', 'a/b'],
    ['of 129 characters', 'a'.repeat(129)],
  ])('refuses a workflow_name %s with 400 SLUICE_MANAGEMENT_INVALID_ARGUMENT, registering nothing', async (_what, name) => {
    const before = (await requestJson(`${t.management}/workflows`)).body;
    const answer = await register(`url=iris-second-opinion.yaml&workflow_name=${encodeURIComponent(name)}`);
    expect(answer).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message: expect.stringMatching(/^`workflow_name` must match \^\[A-Za-z0-9\]/) as unknown },
    });
    expect((await requestJson(`${t.management}/workflows`)).body).toEqual(before);
  });

  it('refuses a workflow registered under the name of the workflow it calls with 400 SLUICE_WORKFLOW_INVALID, keeping the one called', async () => {
    await register('url=iris-second-opinion');
    expect(await register('url=caller&workflow_name=iris-second-opinion')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_WORKFLOW_INVALID',
        message: 'workflow caller.yaml is invalid (1 problem):\ncaller.yaml:6:24: error: nodes.opinion.workflow: the workflow calls itself; a workflow node must name another workflow',
      },
    });
    expect(await run('iris-second-opinion', { measurements: CLEAR })).toMatchObject({ status: 200, body: { label: [0] } });
  });

  it('registers nothing from a refused file', async () => {
    await register('url=unknown-model');
    expect(await requestJson(`${t.management}/workflows/unknown-model`)).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_WORKFLOW_NOT_FOUND' } });
  });

  it.each([
    ['../x', '"../x"'],
    ['/etc/passwd', '"/etc/passwd"'],
    ['file:///etc/passwd', '"file:///etc/passwd"'],
  ])('refuses url=%s, outside the workflow store, with 403 ForbiddenException', async (url, quoted) => {
    expect(await register(`url=${encodeURIComponent(url)}`)).toMatchObject({
      status: 403,
      body: {
        code: 403,
        type: 'ForbiddenException',
        errorCode: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
        message: `workflow url ${quoted} is not a plain name in the workflow store; give a workflow-store name (a file, directory or .sluice archive in the workflow store) or an http(s) URL that allowedUrls allows`,
      },
    });
  });

  it.each(['http://%5B', 'https://'])('refuses the malformed URL %s with 403, making nothing in the workflow store', async (url) => {
    expect(await register(`url=${encodeURIComponent(url)}`)).toMatchObject({
      status: 403,
      body: {
        code: 403,
        type: 'ForbiddenException',
        errorCode: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
        message: `url ${JSON.stringify(url)} is not a valid URL; only http(s) URLs that match the allowed URL patterns and do not point at link-local or cloud metadata addresses are accepted`,
      },
    });
    expect(readdirSync(t.config.workflowStore)).not.toContain('.downloads');
  });

  it('answers 404 SLUICE_WORKFLOW_NOT_FOUND for a name the store does not hold, without the path of the store', async () => {
    expect(await register('url=nowhere')).toMatchObject({
      status: 404,
      body: {
        errorCode: 'SLUICE_WORKFLOW_NOT_FOUND',
        message: 'the workflow store holds no workflow called "nowhere" (looked for nowhere.yaml, nowhere.yml and nowhere/workflow.yaml; name an archive with its .sluice extension)',
      },
    });
  });

  it('runs a workflow without request inputs on an empty JSON object', async () => {
    await writeWorkflowFile(t.dir, 'tagged.yaml', taggedWorkflow('1'));
    await register('url=tagged');
    expect(await run('tagged', {})).toMatchObject({ status: 200, body: 'v1' });
  });

  it('swaps a re-registered workflow in one step: a run in flight finishes on the old version, the next runs the new one', async () => {
    await writeWorkflowFile(t.dir, 'tagged.yaml', taggedWorkflow('1'));
    await register('url=tagged');
    gate.hold();
    const arrived = gate.arrived + 1;
    const inFlight = run('tagged', {});
    await gate.untilArrived(arrived);
    await writeWorkflowFile(t.dir, 'tagged.yaml', taggedWorkflow('2'));
    expect(await register('url=tagged')).toMatchObject({ status: 200, body: { status: 'Workflow "tagged" version 2 registered' } });
    expect((await requestJson(`${t.management}/workflows`)).body).toMatchObject({ workflows: expect.arrayContaining([{ workflowName: 'tagged', workflowUrl: 'tagged', workflowVersion: '2' }]) });
    gate.release();
    expect(await inFlight).toMatchObject({ status: 200, body: 'v1' });
    expect(await run('tagged', {})).toMatchObject({ status: 200, body: 'v2' });
  });

  it('keeps the registered version when a re-registration is refused', async () => {
    await writeWorkflowFile(t.dir, 'tagged.yaml', taggedWorkflow('1'));
    await register('url=tagged');
    await writeWorkflowFile(t.dir, 'tagged.yaml', taggedWorkflow('3').replace('test/gated-tag', 'test/gated-tga'));
    expect(await register('url=tagged')).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_WORKFLOW_INVALID' } });
    expect(await run('tagged', {})).toMatchObject({ status: 200, body: 'v1' });
  });
});

describe('registered workflows across a restart', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-workflow-restart-'));
    const first = await startTestServer({
      dir,
      config: { workflows: [] },
      prepare: async (store) => {
        await copyDemoModels(store, ['iris', 'iris-quick']);
        await copyExampleWorkflows(dir, ['iris-second-opinion.yaml']);
      },
    });
    try {
      const registered = await requestJson(`${first.management}/workflows?url=iris-second-opinion&workflow_name=second-look`, { method: 'POST' });
      expect(registered.status).toBe(200);
    } finally {
      await first.server.stop();
    }
  });
  afterAll(() => cleanup());

  it('writes the registered workflows to the snapshot', async () => {
    const snapshot = JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8')) as { workflows?: unknown };
    expect(snapshot.workflows).toEqual([{ name: 'second-look', url: 'iris-second-opinion' }]);
  });

  it('registers them again when the server starts with the same directory', async () => {
    const second = await startTestServer({ dir, config: { workflows: [] } });
    try {
      expect((await requestJson(`${second.management}/workflows`)).body).toEqual({
        workflows: [{ workflowName: 'second-look', workflowUrl: 'iris-second-opinion', workflowVersion: '1.0' }],
      });
      expect(await requestJson(`${second.inference}/wfpredict/second-look`, { method: 'POST', json: { measurements: CLEAR } })).toMatchObject({
        status: 200,
        body: { label: [0] },
      });
    } finally {
      await second.server.stop();
    }
  });
});

describe('workflows registered at start-up', () => {
  let t: TestServer;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick'],
      logger,
      prepare: async (_store, dir) => {
        await copyExampleWorkflows(dir, ['iris-second-opinion.yaml']);
        await copyFile(join(INVALID_DIR, 'unknown-model.yaml'), join(workflowStoreOf(dir), 'unknown-model.yaml'));
        await copyFile(join(INVALID_DIR, 'many-problems.yaml'), join(workflowStoreOf(dir), 'many-problems.yaml'));
      },
    });
  });
  afterAll(() => t.close());

  it('registers every workflow of the store with `workflows: all`, skipping one that fails', async () => {
    expect((await requestJson(`${t.management}/workflows`)).body).toEqual({
      workflows: [{ workflowName: 'iris-second-opinion', workflowUrl: 'iris-second-opinion', workflowVersion: '1.0' }],
    });
  });

  it('logs each workflow that failed with its problems, the first 20 of many', () => {
    const failed = (source: string): unknown => ({
      level: 'error',
      message: 'workflow failed to load; the others still start',
      fields: { source, reason: readFileSync(join(INVALID_DIR, `${source}.expected.txt`), 'utf8').trimEnd() },
    });
    expect(logger.lines.filter((line) => line.message === 'workflow failed to load; the others still start')).toEqual([failed('many-problems'), failed('unknown-model')]);
  });
});

describe('a workflow calling one whose name sorts after it, at start-up', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick'],
      prepare: async (_store, dir) => {
        await copyExampleWorkflows(dir, ['iris-second-opinion.yaml']);
        await writeWorkflowFile(dir, 'caller.yaml', CALLER);
      },
    });
  });
  afterAll(() => t.close());

  /*
   *   caller: opinion (workflow: iris-second-opinion) ──▶ label        `caller` is read first
   */
  it('registers both with `workflows: all`', async () => {
    expect((await requestJson(`${t.management}/workflows`)).body).toEqual({
      workflows: [
        { workflowName: 'caller', workflowUrl: 'caller', workflowVersion: '1' },
        { workflowName: 'iris-second-opinion', workflowUrl: 'iris-second-opinion', workflowVersion: '1.0' },
      ],
    });
    expect(await requestJson(`${t.inference}/wfpredict/caller`, { method: 'POST', json: { measurements: CLEAR } })).toMatchObject({ status: 200, body: [0] });
  });
});
