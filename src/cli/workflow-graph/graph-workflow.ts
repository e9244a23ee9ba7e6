import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { SluiceError } from '../../sdk/errors/index.js';
import type { SluiceConfig } from '../../config/index.js';
import { convertedHandlerName, convertedNodeInputs, convertTorchServeSpec } from '../../workflow/serving/torchserve/torchserve-conversion.js';
import { readTorchServeSpec, type TorchServeSpec } from '../../workflow/serving/torchserve/torchserve-spec.js';
import { torchServeDocument } from '../../workflow/serving/workflow-manager.js';
import { readWorkflowSource } from '../../workflow/serving/workflow-sources.js';
import { compareVersions } from '../../serving/version-order.js';
import {
  createStaticCatalog,
  parseWorkflow,
  planWorkflow,
  validateWorkflow,
  workflowSignature,
  type HandlerDescription,
  type ParsedWorkflow,
  type WorkflowCatalog,
  type WorkflowPlan,
  type WorkflowProblem,
  type WorkflowSignature,
} from '../../workflow/index.js';
import type { StoreCatalogSource } from './store-catalog.js';

/** A workflow file's text and the name its problems are reported under. */
export interface GraphSource {
  readonly text: string;
  /** The path as given, or the file's name in the workflow store (`ocr.yaml`), as registration reports it. */
  readonly name: string;
}

/** A workflow ready to draw. */
export interface GraphedWorkflow {
  readonly plan: WorkflowPlan;
  /** What validation warned of (nodes that feed no output, …). */
  readonly warnings: readonly WorkflowProblem[];
  /** For a TorchServe spec's nodes: what each stands for (`TorchServe model iris`). */
  readonly notes: Readonly<Record<string, string>>;
}

/** Largest workflow file read, in bytes, as the workflow store reads them. */
const MAX_WORKFLOW_BYTES = 1024 * 1024;

/** Whether `name` is a path to a file (it has a `/` or ends in `.yaml` / `.yml`) rather than a workflow-store name. */
export function namesAFile(name: string): boolean {
  return name.includes('/') || /\.ya?ml$/i.test(name);
}

/**
 * Reads the workflow `name` names: a YAML file (relative to `cwd`) when {@link namesAFile}, else a workflow
 * of the workflow store (`<name>.yaml`, `<name>.yml` or `<name>/workflow.yaml`), as a registration's `url`
 * finds it. Archives are not unpacked.
 */
export async function readGraphSource(name: string, cwd: string, config: SluiceConfig): Promise<GraphSource> {
  if (namesAFile(name)) {
    const path = resolve(cwd, name);
    let size: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) throw new Error('not a regular file');
      size = info.size;
    } catch (error) {
      throw new SluiceError('SLUICE_WORKFLOW_NOT_FOUND', `${name}: no workflow file there (${error instanceof Error ? error.message : String(error)})`, { file: name });
    }
    if (size > MAX_WORKFLOW_BYTES) throw new SluiceError('SLUICE_WORKFLOW_INVALID', `${name}: larger than ${MAX_WORKFLOW_BYTES} bytes`);
    return { text: await readFile(path, 'utf8'), name };
  }
  if (name.endsWith('.sluice')) {
    throw new SluiceError('SLUICE_WORKFLOW_NOT_FOUND', `${name} is a workflow archive, which this command does not unpack; give the path of its workflow.yaml instead`, { url: name });
  }
  const source = await readWorkflowSource(name, config);
  return { text: source.text, name: source.name };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The models, handlers and workflows a parsed file's nodes name (what its catalog must know), before validation. */
function namedTargets(parsed: ParsedWorkflow): { models: Set<string>; workflows: Set<string>; handlers: boolean } {
  const named = { models: new Set<string>(), workflows: new Set<string>(), handlers: false };
  const nodes = parsed.document['nodes'];
  if (!isRecord(nodes)) return named;
  for (const node of Object.values(nodes)) {
    if (!isRecord(node)) continue;
    const { model, workflow, handler } = node;
    if (typeof model === 'string') named.models.add(model.split('@')[0] ?? model);
    if (typeof workflow === 'string') named.workflows.add(workflow);
    if (typeof handler === 'string') named.handlers = true;
  }
  return named;
}

/** Draws workflows against what a server with one configuration would have registered. */
export class WorkflowGraphLoader {
  constructor(
    private readonly store: StoreCatalogSource,
    private readonly config: SluiceConfig,
  ) {}

  /** The catalog warnings met so far (models and workflows left out, and why). */
  get warnings(): readonly string[] {
    return this.store.warnings;
  }

  /**
   * Parses, validates and plans `source` as a registration would, against the models of the model store,
   * the plugins' node handlers and (for `workflow:` nodes) the workflows of the workflow store; a
   * TorchServe spec is converted first. Throws `SLUICE_WORKFLOW_INVALID` with every problem.
   */
  load(source: GraphSource): Promise<GraphedWorkflow> {
    return this.loadWithin(source, new Set());
  }

  private async loadWithin(source: GraphSource, calling: ReadonlySet<string>): Promise<GraphedWorkflow> {
    const document = torchServeDocument(source);
    if (document !== undefined) return this.loadTorchServe(document, source);
    const parsed = parseWorkflow(source.text, { file: source.name });
    const catalog = await this.catalogFor(parsed, calling);
    const { workflow, warnings } = validateWorkflow(parsed, catalog);
    return { plan: planWorkflow(workflow), warnings, notes: {} };
  }

  private async catalogFor(parsed: ParsedWorkflow, calling: ReadonlySet<string>): Promise<WorkflowCatalog> {
    const named = namedTargets(parsed);
    const manifests = await this.store.storeManifests();
    const models = (await Promise.all([...named.models].map((name) => this.store.models(name)))).flat();
    const handlers = named.handlers ? await this.store.handlers() : [];
    const workflows: WorkflowSignature[] = [];
    const own = typeof parsed.document['metadata'] === 'object' ? (parsed.document['metadata'] as Record<string, unknown>)['name'] : undefined;
    const within = new Set([...calling, ...(typeof own === 'string' ? [own] : [])]);
    for (const name of named.workflows) {
      if (within.has(name)) continue;
      const signature = await this.signatureOf(name, within);
      if (signature !== undefined) workflows.push(signature);
    }
    const catalog = createStaticCatalog({ models, handlers, workflows });
    const modelNames = [...new Set(manifests.map((manifest) => manifest.name))];
    return {
      ...catalog,
      modelNames: () => modelNames,
      modelVersions: (name) =>
        manifests
          .filter((manifest) => manifest.name === name)
          .map((manifest) => manifest.version)
          .sort((a, b) => compareVersions(b, a)),
    };
  }

  /** The signature of the store's workflow `name`, loaded as a node calls it; undefined (with a warning) when it cannot be. */
  private async signatureOf(name: string, calling: ReadonlySet<string>): Promise<WorkflowSignature | undefined> {
    try {
      const { text, name: file } = await readWorkflowSource(name, this.config);
      const called = await this.loadWithin({ text, name: file }, calling);
      return { ...workflowSignature(called.plan.workflow), name };
    } catch (error) {
      this.store.warnings.push(`workflow ${name} is left out: ${error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error)}`);
      return undefined;
    }
  }

  /** A TorchServe spec converted as registration converts it, its nodes handler nodes noted with what they stand for. */
  private loadTorchServe(document: unknown, source: GraphSource): GraphedWorkflow {
    const spec = readTorchServeSpec(document, source.name);
    const name = basename(source.name).replace(/\.ya?ml$/i, '');
    const handlers: HandlerDescription[] = spec.nodes.map((node) => ({ name: convertedHandlerName(name, node), inputs: convertedNodeInputs(spec, node), outputs: { result: {} } }));
    const parsed = parseWorkflow(convertTorchServeSpec(spec, name, '1'), { file: source.name });
    const { workflow, warnings } = validateWorkflow(parsed, createStaticCatalog({ handlers }));
    return { plan: planWorkflow(workflow), warnings, notes: torchServeNotes(spec) };
  }
}

/** What each node of a TorchServe spec stands for: a model of the store, or a function of its module. */
function torchServeNotes(spec: TorchServeSpec): Record<string, string> {
  return Object.fromEntries(
    spec.nodes.map((node) => {
      const model = spec.models.find((m) => m.node === node);
      return [node, model === undefined ? `TorchServe function ${node}` : `TorchServe model ${model.url}`];
    }),
  );
}
