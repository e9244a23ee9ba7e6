import { load, YAMLException } from 'js-yaml';
import { SluiceError } from '../../../sdk/errors/index.js';
import { batchDelayProblem, batchSizeProblem } from '../../../serving/batching-limits.js';
import { MAX_WORKERS } from '../../../serving/worker-limit.js';

/** Most nodes a DAG may have: the nodes a workflow may have. */
const MAX_NODES = 1000;

/** Global settings of a TorchServe workflow spec's `models:` section, with the spec's own key names. */
const MODEL_SETTING_KEYS = ['min-workers', 'max-workers', 'batch-size', 'max-batch-delay', 'retry-attempts', 'timeout-ms'] as const;

/** One model of a TorchServe workflow spec. */
export interface TorchServeModel {
  /** The node name in the DAG. */
  readonly node: string;
  /** Where the model comes from: a model-store name or archive name. */
  readonly url: string;
  readonly minWorkers?: number;
  readonly maxWorkers?: number;
  readonly batchSize?: number;
  readonly maxBatchDelayMs?: number;
  readonly retryAttempts?: number;
  readonly timeoutMs?: number;
}

/** A TorchServe workflow spec, read and checked. */
export interface TorchServeSpec {
  readonly models: readonly TorchServeModel[];
  /** Node → its children (a map: node names such as `constructor` are names, not properties). */
  readonly dag: ReadonlyMap<string, readonly string[]>;
  /** Every node of the DAG, in first-mention order. */
  readonly nodes: readonly string[];
  /** Node → its parents, in DAG order, each once. */
  readonly parents: ReadonlyMap<string, readonly string[]>;
  /** Workflow-wide retries and timeout (`retry-attempts`, `timeout-ms`). */
  readonly retryAttempts?: number;
  readonly timeoutMs?: number;
}

function invalid(file: string, message: string): SluiceError {
  return new SluiceError('SLUICE_WORKFLOW_INVALID', `${file}: ${message}`, { problems: [message] });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a document shaped like a TorchServe workflow spec (`models:` and `dag:`, no `apiVersion`). */
export function looksLikeTorchServeSpec(document: unknown): boolean {
  return isRecord(document) && 'models' in document && 'dag' in document && !('apiVersion' in document);
}

/** Parses YAML text safely (no aliases, default schema). */
export function parseSpecYaml(text: string, file: string): unknown {
  try {
    return load(text, { filename: file, maxAliases: 0 });
  } catch (error) {
    if (error instanceof YAMLException) throw invalid(file, `is not valid YAML: ${error.reason}`);
    throw error;
  }
}

function positiveInteger(value: unknown, key: string, file: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalid(file, `\`${key}\` must be a non-negative integer`);
  return value;
}

/** A worker count: as {@link positiveInteger}, and at most {@link MAX_WORKERS}. */
function workerCount(value: unknown, key: string, file: string): number | undefined {
  const count = positiveInteger(value, key, file);
  if (count !== undefined && count > MAX_WORKERS) throw invalid(file, `\`${key}\` (${count}) is more than the ${MAX_WORKERS} workers a model may have; give at most ${MAX_WORKERS}`);
  return count;
}

/** A batch setting: as {@link positiveInteger}, and within the bounds `problem` checks (those of `model.yaml`). */
function batchSetting(value: unknown, key: string, file: string, problem: (name: string, value: number) => string | undefined): number | undefined {
  const setting = positiveInteger(value, key, file);
  const wrong = setting === undefined ? undefined : problem(key, setting);
  if (wrong !== undefined) throw invalid(file, wrong);
  return setting;
}

function settings(entry: Record<string, unknown>, where: string, file: string): Omit<TorchServeModel, 'node' | 'url'> {
  const value = (key: (typeof MODEL_SETTING_KEYS)[number]): number | undefined => positiveInteger(entry[key], `${where}${key}`, file);
  const out = {
    minWorkers: workerCount(entry['min-workers'], `${where}min-workers`, file),
    maxWorkers: workerCount(entry['max-workers'], `${where}max-workers`, file),
    batchSize: batchSetting(entry['batch-size'], `${where}batch-size`, file, batchSizeProblem),
    maxBatchDelayMs: batchSetting(entry['max-batch-delay'], `${where}max-batch-delay`, file, batchDelayProblem),
    retryAttempts: value('retry-attempts'),
    timeoutMs: value('timeout-ms'),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/**
 * Reads a TorchServe workflow spec: `models:` (global `min-workers`, `max-workers`, `batch-size`,
 * `max-batch-delay`, `retry-attempts`, `timeout-ms`, and one entry per model with its `url` and
 * overrides) and `dag:` (node → children). Checks that the DAG has exactly one start node and no cycle.
 */
export function readTorchServeSpec(document: unknown, file: string): TorchServeSpec {
  if (!isRecord(document) || !isRecord(document['models']) || !isRecord(document['dag'])) {
    throw invalid(file, 'a TorchServe workflow spec needs a `models:` mapping and a `dag:` mapping');
  }
  const global = settings(document['models'], 'models.', file);
  const models: TorchServeModel[] = [];
  for (const [node, entry] of Object.entries(document['models'])) {
    if ((MODEL_SETTING_KEYS as readonly string[]).includes(node)) continue;
    if (!isRecord(entry) || typeof entry['url'] !== 'string') throw invalid(file, `model \`${node}\` needs a \`url\` (a model-store name or archive)`);
    models.push({ node, url: entry['url'], ...global, ...settings(entry, `models.${node}.`, file) });
  }
  const dag = new Map<string, string[]>();
  const mentioned = new Set<string>();
  const mention = (name: string): void => {
    mentioned.add(name);
    // Checked as the nodes come: the checks below walk the graph, and a huge one would hold the server.
    if (mentioned.size > MAX_NODES) throw invalid(file, `the dag has more than ${MAX_NODES} nodes; a workflow has at most ${MAX_NODES}`);
  };
  for (const [node, children] of Object.entries(document['dag'])) {
    if (!Array.isArray(children) || !children.every((c): c is string => typeof c === 'string')) {
      throw invalid(file, `\`dag.${node}\` must be a list of node names`);
    }
    mention(node);
    children.forEach(mention);
    dag.set(node, children);
  }
  const nodes = [...mentioned];
  const hasParent = new Set([...dag.values()].flat());
  const starts = nodes.filter((n) => !hasParent.has(n));
  if (starts.length !== 1) throw invalid(file, `the dag must have exactly one start node, it has ${starts.length} (${starts.join(', ') || 'none: it is a cycle'})`);
  assertAcyclic(dag, nodes, file);
  return { models, dag, nodes, parents: parentsOf(dag, nodes), ...(global.retryAttempts !== undefined ? { retryAttempts: global.retryAttempts } : {}), ...(global.timeoutMs !== undefined ? { timeoutMs: global.timeoutMs } : {}) };
}

/** Each node's parents in DAG order, found in one pass over the edges. */
function parentsOf(dag: ReadonlyMap<string, readonly string[]>, nodes: readonly string[]): Map<string, string[]> {
  const parents = new Map<string, Set<string>>(nodes.map((node) => [node, new Set()]));
  for (const [parent, children] of dag) for (const child of children) parents.get(child)?.add(parent);
  return new Map([...parents].map(([node, of]) => [node, [...of]]));
}

function assertAcyclic(dag: ReadonlyMap<string, readonly string[]>, nodes: readonly string[], file: string): void {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (node: string, path: string[]): void => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'visiting') throw invalid(file, `the dag has a cycle: ${[...path.slice(path.indexOf(node)), node].join(' → ')}`);
    state.set(node, 'visiting');
    for (const child of dag.get(node) ?? []) visit(child, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of nodes) visit(node, []);
}
