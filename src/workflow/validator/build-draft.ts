import type { SupportedDatatype } from '../../sdk/tensor/index.js';
import { BUILT_IN_POLICIES, type ErrorPolicy, type NodePolicies, type RetryPolicy } from '../definition/node-policies.js';
import type { NodeTarget } from '../definition/node-target.js';
import type { Binding } from '../definition/value-source.js';
import type { WorkflowInputSpec, WorkflowInputType } from '../definition/workflow-input-spec.js';
import { childPointer, pointerOf, type JsonPointer } from '../problems/json-pointer.js';
import type { ProblemCollector } from '../problems/problem-collector.js';
import { setOwn } from '../../sdk/collections/own-property.js';
import { parseBindingText } from './binding-syntax.js';
import type { NodeDraft, WorkflowDraft } from './workflow-draft.js';

type RawRecord = Readonly<Record<string, unknown>>;

const NODE_KINDS = ['model', 'handler', 'workflow'] as const;

function record(value: unknown): RawRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RawRecord) : undefined;
}

function string(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function integer(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

function readRetry(raw: unknown, base: RetryPolicy): RetryPolicy {
  const retry = record(raw);
  return { attempts: integer(retry?.['attempts']) ?? base.attempts, backoffMs: integer(retry?.['backoffMs']) ?? base.backoffMs };
}

function readOnError(raw: unknown, base: ErrorPolicy): ErrorPolicy {
  if (raw === 'fail' || raw === 'skip') return { kind: raw };
  const fallback = record(record(raw)?.['fallback']);
  return fallback === undefined ? base : { kind: 'fallback', outputs: fallback };
}

function readPolicies(raw: RawRecord | undefined, base: NodePolicies): NodePolicies {
  return {
    timeoutMs: integer(raw?.['timeoutMs']) ?? base.timeoutMs,
    retry: readRetry(raw?.['retry'], base.retry),
    onError: readOnError(raw?.['onError'], base.onError),
    concurrency: integer(raw?.['concurrency']) ?? base.concurrency,
  };
}

/** Reads one binding (a reference string or `{ value }`), reporting a reference it cannot read. */
function readBinding(raw: unknown, at: JsonPointer, problems: ProblemCollector): Binding | undefined {
  const literal = record(raw);
  if (literal !== undefined) return 'value' in literal ? { alternatives: [{ kind: 'literal', value: literal['value'] }], at, offsets: [0] } : undefined;
  if (typeof raw !== 'string') return undefined;
  const parsed = parseBindingText(raw);
  if (!parsed.ok) {
    problems.error(at, parsed.error.message, parsed.error.hint, { within: parsed.error.offset });
    return undefined;
  }
  return { alternatives: parsed.alternatives, at, offsets: parsed.offsets };
}

function readTarget(raw: RawRecord, at: JsonPointer, problems: ProblemCollector): NodeTarget | undefined {
  const kinds = NODE_KINDS.filter((kind) => kind in raw);
  if (kinds.length === 0) {
    problems.error(at, 'names no `model`, `handler` or `workflow`', 'give the node exactly one of them', 'key');
    return undefined;
  }
  if (kinds.length > 1) {
    const named = kinds.map((kind) => `\`${kind}\``);
    problems.error(at, `has both ${named.slice(0, -1).join(', ')} and ${named.at(-1) ?? ''}`, 'a node is exactly one of model, handler or workflow; split it into separate nodes', 'key');
    return undefined;
  }
  const value = string(raw[kinds[0] ?? 'model']);
  if (value === undefined) return undefined;
  if ('model' in raw) {
    const [model = value, version] = value.split('@');
    return { kind: 'model', model, version };
  }
  return 'handler' in raw ? { kind: 'handler', handler: value } : { kind: 'workflow', workflow: value };
}

function readNode(id: string, raw: RawRecord, base: NodePolicies, problems: ProblemCollector): NodeDraft | undefined {
  const at = pointerOf('nodes', id);
  // A node the schema refused (an unknown key, a wrong type) is not checked further: what follows
  // would mostly repeat the same mistake.
  const refused = problems.hasErrorWithin(at);
  const inputs: Record<string, Binding> = {};
  for (const [name, value] of Object.entries(record(raw['inputs']) ?? {})) {
    const binding = readBinding(value, childPointer(childPointer(at, 'inputs'), name), problems);
    if (binding !== undefined) setOwn(inputs, name, binding);
  }
  const forEach = raw['forEach'] === undefined ? undefined : readBinding(raw['forEach'], childPointer(at, 'forEach'), problems);
  if (refused) return undefined;
  const target = readTarget(raw, at, problems);
  if (target === undefined || problems.hasErrorWithin(at)) return undefined;
  const description = string(raw['description']);
  const when = string(raw['when']);
  return {
    id,
    at,
    target,
    ...(description !== undefined && { description }),
    inputs,
    ...(forEach !== undefined && { forEach }),
    ...(when !== undefined && { when }),
    ...readPolicies(raw, base),
  };
}

function readInput(name: string, raw: RawRecord, problems: ProblemCollector): WorkflowInputSpec {
  const at = pointerOf('inputs', name);
  const datatype = string(raw['datatype']) as SupportedDatatype | undefined;
  const shape = Array.isArray(raw['shape']) ? (raw['shape'] as number[]) : undefined;
  const tensorKeys = datatype !== undefined || shape !== undefined;
  const type = (string(raw['type']) ?? (tensorKeys ? 'tensor' : 'any')) as WorkflowInputType;
  if (tensorKeys && type !== 'tensor') {
    const key = datatype !== undefined ? 'datatype' : 'shape';
    problems.error(childPointer(at, key), `\`${key}\` only applies to tensor inputs, and this input's type is ${type}`, 'remove it or make the input `type: tensor`', 'key');
  }
  const description = string(raw['description']);
  return {
    type,
    ...(datatype !== undefined && { datatype }),
    ...(shape !== undefined && { shape }),
    optional: raw['optional'] === true,
    ...(description !== undefined && { description }),
  };
}

/**
 * Reads a workflow document into a {@link WorkflowDraft}, tolerating values the schema already refused
 * (they are skipped, not reported twice) so that every other problem can still be found. Reports nodes
 * that are not exactly one kind, and reference strings it cannot read. `servedName` is the name the
 * workflow is served under, when it is not its `metadata.name`.
 */
export function buildDraft(document: RawRecord, file: string, problems: ProblemCollector, servedName?: string): WorkflowDraft {
  const metadata = record(document['metadata']);
  const defaults = problems.hasErrorWithin('/defaults') ? BUILT_IN_POLICIES : readPolicies(record(document['defaults']), BUILT_IN_POLICIES);
  const inputs: Record<string, WorkflowInputSpec> = {};
  for (const [name, raw] of Object.entries(record(document['inputs']) ?? {})) {
    setOwn(inputs, name, readInput(name, record(raw) ?? {}, problems));
  }
  const rawNodes = Object.entries(record(document['nodes']) ?? {});
  const nodes = new Map<string, NodeDraft>();
  for (const [id, raw] of rawNodes) {
    const node = readNode(id, record(raw) ?? {}, defaults, problems);
    if (node !== undefined) nodes.set(id, node);
  }
  const rawOutputs = record(document['outputs']);
  const outputs: Record<string, Binding> = {};
  for (const [name, raw] of Object.entries(rawOutputs ?? {})) {
    const binding = readBinding(raw, pointerOf('outputs', name), problems);
    if (binding !== undefined) setOwn(outputs, name, binding);
  }
  const complete = nodes.size === rawNodes.length && rawOutputs !== undefined && Object.keys(outputs).length === Object.keys(rawOutputs).length;
  const description = string(metadata?.['description']);
  const responseTimeoutMs = integer(document['responseTimeoutMs']);
  return {
    file,
    name: servedName ?? string(metadata?.['name']) ?? '',
    version: string(metadata?.['version']) ?? '1',
    ...(description !== undefined && { description }),
    ...(responseTimeoutMs !== undefined && { responseTimeoutMs }),
    inputs,
    nodeIds: rawNodes.map(([id]) => id),
    nodes,
    outputs,
    complete,
  };
}
