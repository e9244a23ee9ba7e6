import { dump } from 'js-yaml';
import type { TorchServeSpec } from './torchserve-spec.js';

/** The handler a converted node runs: `torchserve/<workflow>.<node>`. */
export function convertedHandlerName(workflow: string, node: string): string {
  return `torchserve/${workflow}.${node}`;
}

/** Attempts a workflow node may make at most. */
const MAX_ATTEMPTS = 10;

function parentsOf(spec: TorchServeSpec, node: string): readonly string[] {
  return spec.parents.get(node) ?? [];
}

/** What a node of a converted spec takes: `body`, or one input per parent when it has several. */
export function convertedNodeInputs(spec: TorchServeSpec, node: string): readonly string[] {
  const parents = parentsOf(spec, node);
  return parents.length <= 1 ? ['body'] : parents;
}

/**
 * A TorchServe spec as a Sluice workflow document (YAML text), every node a handler node whose handler
 * the caller provides (a model's predict, or a function of the spec's module). TorchServe's data flow is
 * kept: the start node gets the request body as `body`; a node with one parent gets the parent's result
 * as `body`; a node with several parents gets one input per parent, named after it; one leaf gives its
 * result as the answer, several give an object keyed by leaf.
 */
export function convertTorchServeSpec(spec: TorchServeSpec, workflow: string, version: string): string {
  // The spec's node names become workflow node ids, which allow letters, digits, '_' and '-'.
  // Entries, made into an object at the end: assigning a node called `__proto__` would set the prototype.
  const nodes: [string, unknown][] = [];
  for (const node of spec.nodes) {
    const parents = parentsOf(spec, node);
    const model = spec.models.find((m) => m.node === node);
    const inputs =
      parents.length === 0
        ? { body: '$request.body' }
        : parents.length === 1
          ? { body: `${parents[0] ?? ''}.result` }
          : Object.fromEntries(parents.map((p) => [p, `${p}.result`]));
    // TorchServe counts retries; Sluice counts attempts, the first included.
    const attempts = Math.min(MAX_ATTEMPTS, (model?.retryAttempts ?? spec.retryAttempts ?? 0) + 1);
    const timeoutMs = model?.timeoutMs ?? spec.timeoutMs;
    nodes.push([
      node,
      {
        handler: convertedHandlerName(workflow, node),
        inputs,
        retry: { attempts, backoffMs: 0 },
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      },
    ]);
  }
  const leaves = spec.nodes.filter((n) => (spec.dag.get(n) ?? []).length === 0);
  const [onlyLeaf] = leaves;
  const outputs = leaves.length === 1 && onlyLeaf !== undefined ? { result: `${onlyLeaf}.result` } : Object.fromEntries(leaves.map((l) => [l, `${l}.result`]));
  return dump({
    apiVersion: 'sluice/v1',
    kind: 'Workflow',
    metadata: { name: workflow, version, description: 'Converted from a TorchServe workflow spec.' },
    inputs: { body: { type: 'any', description: 'the request body' } },
    nodes: Object.fromEntries(nodes),
    outputs,
  });
}
