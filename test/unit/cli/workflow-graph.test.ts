import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readGraphSource, WorkflowGraphLoader, type GraphedWorkflow } from '../../../src/cli/workflow-graph/graph-workflow.js';
import { StoreCatalogSource } from '../../../src/cli/workflow-graph/store-catalog.js';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { loadConfig, type SluiceConfig } from '../../../src/config/index.js';
import { scanWorkflowStore } from '../../../src/workflow/serving/workflow-sources.js';
import { createLogger, lineSink } from '../../../src/telemetry/logging/pino-logger.js';
import { printDot, printMermaid, workflowDiagram } from '../../../src/workflow/index.js';
import { dotProblems, mermaidProblems } from '../../support/docs/diagram-syntax.js';
import { makeTempDir } from '../../support/temp-dir.js';

const root = packageRoot();
const GOLDEN = join(root, 'test', 'fixtures', 'workflow-graphs');
const EXAMPLES = await scanWorkflowStore(join(root, 'workflows'));

/** A loader over the repository's model store and `workflowStore`, as `sluice workflow graph` builds one. */
function loaderOver(workflowStore: string): { loader: WorkflowGraphLoader; config: SluiceConfig } {
  const config = loadConfig({ cwd: root, env: {}, overrides: { modelStore: join(root, 'model-store'), workflowStore } });
  const store = new StoreCatalogSource({ config, configDirectory: root, logger: createLogger('silent', lineSink(() => undefined)) });
  return { loader: new WorkflowGraphLoader(store, config), config };
}

describe('the graphs of the example workflows', () => {
  const { loader, config } = loaderOver(join(root, 'workflows'));
  const graphs = new Map<string, GraphedWorkflow>();
  beforeAll(async () => {
    for (const name of EXAMPLES) graphs.set(name, await loader.load(await readGraphSource(name, root, config)));
  });

  it('covers every workflow in workflows/', () => {
    expect(EXAMPLES).toEqual(['iris-second-opinion', 'ocr', 'ocr-line', 'ocr-stream', 'torchserve-iris']);
  });

  it('loads every example without warnings', () => {
    expect([...graphs.values()].flatMap((graph) => graph.warnings)).toEqual([]);
    expect(loader.warnings).toEqual([]);
  });

  it.each(EXAMPLES)('%s prints as its Mermaid golden file', (name) => {
    const graph = graphs.get(name);
    expect(graph && printMermaid(workflowDiagram(graph.plan, { notes: graph.notes }))).toBe(readFileSync(join(GOLDEN, `${name}.mmd`), 'utf8'));
  });

  it.each(EXAMPLES)('%s prints as its DOT golden file', (name) => {
    const graph = graphs.get(name);
    expect(graph && printDot(workflowDiagram(graph.plan, { notes: graph.notes }))).toBe(readFileSync(join(GOLDEN, `${name}.dot`), 'utf8'));
  });

  it('draws the OCR example of docs/workflows.md as workflows/ocr.yaml, which the page says it is', async () => {
    const doc = readFileSync(join(root, 'docs', 'workflows.md'), 'utf8');
    const example = /```yaml\n(apiVersion: sluice\/v1\nkind: Workflow\nmetadata: \{ name: ocr,[\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const graph = await loader.load({ text: example, name: 'ocr.yaml' });
    expect(printMermaid(workflowDiagram(graph.plan))).toBe(readFileSync(join(GOLDEN, 'ocr.mmd'), 'utf8'));
  });

  it.each(EXAMPLES)('the golden files of %s keep to the Mermaid and DOT subsets', (name) => {
    expect(mermaidProblems(readFileSync(join(GOLDEN, `${name}.mmd`), 'utf8'))).toEqual([]);
    expect(dotProblems(readFileSync(join(GOLDEN, `${name}.dot`), 'utf8'))).toEqual([]);
  });
});

describe('reading a workflow to draw', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let store: ReturnType<typeof loaderOver>;
  const load = async (name: string): Promise<GraphedWorkflow> => store.loader.load(await readGraphSource(name, dir, store.config));

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-graph-'));
    await mkdir(join(dir, 'workflows'));
    for (const file of ['iris-second-opinion.yaml', 'ocr.yaml']) await writeFile(join(dir, 'workflows', file), readFileSync(join(root, 'workflows', file)));
    await writeFile(
      join(dir, 'workflows', 'caller.yaml'),
      'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: caller }\ninputs: { m: { datatype: FP32, shape: [-1, 4] } }\nnodes:\n  ask: { workflow: iris-second-opinion, inputs: { measurements: $request.m } }\noutputs: { label: ask.label }\n',
    );
    await writeFile(join(dir, 'typo.yaml'), 'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: typo }\nnodes:\n  a: { model: irs, inputs: { input: { value: [1, 2, 3, 4] } } }\noutputs: { x: a.label }\n');
    await writeFile(join(dir, 'broken.yaml'), 'apiVersion: sluice/v1\nkind: Workflow\nnodes: [\n');
    store = loaderOver(join(dir, 'workflows'));
  });
  afterAll(() => cleanup());

  it('finds a workflow-store name in the workflow store', async () => {
    expect((await load('ocr')).plan.workflow).toMatchObject({ name: 'ocr', file: 'ocr.yaml' });
  });

  it('reads a name with a / or a .yaml ending as a file, relative to the working directory', async () => {
    expect((await load('workflows/ocr.yaml')).plan.workflow).toMatchObject({ name: 'ocr', file: 'workflows/ocr.yaml' });
  });

  it('checks a workflow node against the workflow it calls, read from the workflow store', async () => {
    expect((await load('caller')).plan.workflow.nodes['ask']).toMatchObject({ target: { kind: 'workflow', workflow: 'iris-second-opinion' } });
  });

  it('refuses a workflow naming a model the store does not hold, with the problem registration reports', async () => {
    await expect(load('typo.yaml')).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_INVALID',
      message: 'workflow typo.yaml is invalid (1 problem):\ntypo.yaml:5:15: error: nodes.a.model: unknown model `irs`; did you mean `iris`?',
    });
  });

  it('refuses a file that is not YAML, naming the line', async () => {
    await expect(load('broken.yaml')).rejects.toMatchObject({ code: 'SLUICE_WORKFLOW_INVALID', message: expect.stringMatching(/^workflow broken\.yaml is invalid \(1 problem\):\nbroken\.yaml:4:/) as unknown });
  });

  it('refuses a file that is not there', async () => {
    await expect(load('missing.yaml')).rejects.toMatchObject({ code: 'SLUICE_WORKFLOW_NOT_FOUND', message: expect.stringMatching(/^missing\.yaml: no workflow file there/) as unknown });
  });

  it('refuses a name the workflow store does not hold', async () => {
    await expect(load('nothing')).rejects.toMatchObject({ code: 'SLUICE_WORKFLOW_NOT_FOUND' });
  });

  it('refuses a workflow archive, which it does not unpack', async () => {
    await expect(load('ocr-1.0.sluice')).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NOT_FOUND',
      message: 'ocr-1.0.sluice is a workflow archive, which this command does not unpack; give the path of its workflow.yaml instead',
    });
  });
});
