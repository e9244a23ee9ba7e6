import type { Condition } from './condition.js';
import type { NodePorts } from './node-ports.js';
import type { ErrorPolicy, RetryPolicy } from './node-policies.js';
import type { NodeTarget } from './node-target.js';
import type { Binding } from './value-source.js';
import type { WorkflowInputSpec } from './workflow-input-spec.js';

/** One node of a validated workflow, with every default applied and its target resolved. */
export interface WorkflowNode {
  readonly id: string;
  readonly target: NodeTarget;
  /** The target's inputs and outputs as the catalog described them when the workflow was validated. */
  readonly ports: NodePorts;
  readonly description?: string;
  /** Parameter name → binding. */
  readonly inputs: Readonly<Record<string, Binding>>;
  readonly forEach?: Binding;
  readonly when?: Condition;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly onError: ErrorPolicy;
  /** Most `forEach` calls in flight at once. */
  readonly concurrency: number;
}

/** A workflow that passed validation: the input of the planner. */
export interface WorkflowDefinition {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  /** The file it was read from. */
  readonly file: string;
  /** The longest one run may take, as the file sets it; absent when the server's default applies. */
  readonly responseTimeoutMs?: number;
  readonly inputs: Readonly<Record<string, WorkflowInputSpec>>;
  /** Nodes by id, in the order the file gives them. */
  readonly nodes: Readonly<Record<string, WorkflowNode>>;
  /** Output name → binding. */
  readonly outputs: Readonly<Record<string, Binding>>;
}
