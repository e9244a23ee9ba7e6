import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { runCli } from '../support/cli-process.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { copyExampleWorkflows, writeWorkflowFile } from '../support/workflows/workflow-store.js';

const golden = (file: string): string => readFileSync(join(packageRoot(), 'test', 'fixtures', 'workflow-graphs', file), 'utf8');

/** A workflow naming a model the store does not hold: refused by registration and by the command alike. */
const TYPO = 'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: typo }\nnodes:\n  a: { model: irs, inputs: { input: { value: [1, 2, 3, 4] } } }\noutputs: { x: a.label }\n';

/**
 * `sluice workflow graph` run as a user runs it, in the directory of a server whose model store and
 * workflow store it reads (the default `./model-store` and `./workflows`).
 */
describe('sluice workflow graph', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick', 'ppocr-det', 'ppocr-rec'],
      prepare: async (_store, dir) => {
        await copyExampleWorkflows(dir, ['ocr.yaml', 'iris-second-opinion.yaml', 'torchserve-iris.yaml', 'torchserve-iris.js']);
        await writeWorkflowFile(dir, 'typo.yaml', TYPO);
      },
    });
  });
  afterAll(() => t.close());

  it('prints a workflow of the workflow store as Mermaid', async () => {
    expect(await runCli(['workflow', 'graph', 'ocr'], t.dir)).toEqual({ code: 0, stdout: golden('ocr.mmd'), stderr: '' });
  });

  it('prints it as Graphviz DOT with --format dot', async () => {
    expect(await runCli(['workflow', 'graph', 'iris-second-opinion', '--format', 'dot'], t.dir)).toEqual({ code: 0, stdout: golden('iris-second-opinion.dot'), stderr: '' });
  });

  it('reads the stores --workflow-store and --model-store name', async () => {
    const run = await runCli(['workflow', 'graph', 'torchserve-iris', '--workflow-store', 'workflows', '--model-store', 'model-store'], t.dir);
    expect(run).toEqual({ code: 0, stdout: golden('torchserve-iris.mmd'), stderr: '' });
  });

  it('reads a path as a file', async () => {
    const { code, stdout } = await runCli(['workflow', 'graph', './workflows/ocr.yaml'], t.dir);
    expect({ code, firstLines: stdout.split('\n').slice(0, 2) }).toEqual({ code: 0, firstLines: ['flowchart LR', '  %% workflow ocr 1.0 (./workflows/ocr.yaml)'] });
  });

  it('refuses an invalid workflow with the error registration answers, exit status 1', async () => {
    const registration = await requestJson(`${t.management}/workflows?url=typo`, { method: 'POST' });
    expect(registration).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_WORKFLOW_INVALID' } });
    const { message } = registration.body as { message: string };
    expect(await runCli(['workflow', 'graph', 'typo'], t.dir)).toEqual({ code: 1, stdout: '', stderr: `sluice: ${message} [SLUICE_WORKFLOW_INVALID]\n` });
  });

  it('refuses a format it does not print, exit status 2', async () => {
    expect(await runCli(['workflow', 'graph', 'ocr', '--format', 'svg'], t.dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'sluice: --format must be one of mermaid, dot; it was given "svg"\n',
    });
  });

  it('asks for a workflow when given none, exit status 2', async () => {
    const { code, stderr } = await runCli(['workflow', 'graph'], t.dir);
    expect({ code, stderr }).toEqual({
      code: 2,
      stderr: 'sluice: usage: sluice workflow graph <name | file.yaml> [--format mermaid|dot] [--config FILE] [--workflow-store DIR] [--model-store DIR]\n',
    });
  });

  it('is listed in --help', async () => {
    const { code, stdout } = await runCli(['--help'], t.dir);
    expect({ code, listed: stdout.includes('sluice workflow graph <name | file.yaml> [options]') }).toEqual({ code: 0, listed: true });
  });
});
