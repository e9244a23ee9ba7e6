import type { NodePolicies } from '../definition/node-policies.js';
import type { NodeTarget } from '../definition/node-target.js';
import type { Binding } from '../definition/value-source.js';
import type { WorkflowInputSpec } from '../definition/workflow-input-spec.js';
import type { JsonPointer } from '../problems/json-pointer.js';

/** A node as the file writes it, read but not yet checked against the catalog or the rest of the graph. */
export interface NodeDraft extends NodePolicies {
  readonly id: string;
  readonly at: JsonPointer;
  readonly target: NodeTarget;
  readonly description?: string;
  readonly inputs: Readonly<Record<string, Binding>>;
  readonly forEach?: Binding;
  readonly when?: string;
}

/**
 * A workflow file read as far as its own problems allow. Nodes with problems of their own (unknown keys,
 * two kinds, unreadable references) are left out of `nodes` but kept in `nodeIds`, so references to them
 * are not reported again as unknown.
 */
export interface WorkflowDraft {
  readonly file: string;
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  /** The longest one run may take, when the file sets it. */
  readonly responseTimeoutMs?: number;
  readonly inputs: Readonly<Record<string, WorkflowInputSpec>>;
  readonly nodeIds: readonly string[];
  readonly nodes: ReadonlyMap<string, NodeDraft>;
  readonly outputs: Readonly<Record<string, Binding>>;
  /** False when a node or output could not be read, so the graph is not fully known. */
  readonly complete: boolean;
}
