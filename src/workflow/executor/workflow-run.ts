import { setMaxListeners } from 'node:events';
import type { WorkflowPlan } from '../planner/workflow-plan.js';
import { skippedByUpstream } from '../graph/skip-propagation.js';
import { describeValue } from '../values/describe-value.js';
import type { CallContext } from './call-target.js';
import { evaluateCondition } from './condition-context.js';
import type { NodeProgressConsumer, ObservedNodeStatus, ProgressConsumer, WorkflowNodeProgress, WorkflowProgress, WorkflowClock, WorkflowNodeObservation, WorkflowRunObservation } from './execute-options.js';
import { nodeFailure } from './node-failure.js';
import { ProgressRelay } from './progress-relay.js';
import { resolveBinding, type BindingScope, type NodeOutcome } from './resolve-binding.js';
import type { RunDeadline } from './run-deadline.js';
import { RunFinished, deadlineExceeded, runCancelled } from './run-ending.js';
import { runNode } from './run-node.js';
import type { RunTrace } from './run-trace.js';
import { setLongTimeout, type LongTimeout } from '../../timers/long-timeout.js';
import type { Binding } from '../definition/value-source.js';
import { setOwn } from '../../sdk/collections/own-property.js';

type Outputs = Readonly<Record<string, unknown>>;

/** What one run is given. */
export interface RunSetup {
  readonly plan: WorkflowPlan;
  /** Request inputs, already checked. */
  readonly request: Outputs;
  readonly context: CallContext & { readonly clock: WorkflowClock };
  readonly trace: RunTrace;
  readonly signal: AbortSignal | undefined;
  /** When the run must have ended; none bounds it when undefined. */
  readonly deadline: RunDeadline | undefined;
  /** Tracing and metrics of the run, when the server observes runs. */
  readonly observation?: WorkflowRunObservation | undefined;
  readonly onProgress?: ProgressConsumer | undefined;
  readonly onNodeProgress?: NodeProgressConsumer | undefined;
}

const PENDING: NodeOutcome = { status: 'pending' };
const SKIPPED: NodeOutcome = { status: 'skipped' };

/**
 * One run of a plan. A node starts as soon as every node it depends on has settled, so independent
 * branches run in parallel; a node whose value sources were all skipped is skipped; a false `when`
 * skips its node. The run ends as soon as every workflow output is known (nodes still running are then
 * cancelled), when a node fails with `onError: fail`, at the deadline, or when the signal aborts.
 */
export class WorkflowRun {
  private readonly outcomes = new Map<string, NodeOutcome>();
  private readonly waiting = new Map<string, number>();
  private readonly running = new Set<string>();
  /** Aborted when the run ends, cancelling every node still running. */
  private readonly nodesController = new AbortController();
  private ended = false;
  private settle: { resolve: (outputs: Outputs) => void; reject: (error: Error) => void } | undefined;
  private timer: LongTimeout | undefined;
  /** The outputs, in order; those before {@link knownOutputs} are known (a settled node stays settled). */
  private readonly outputBindings: readonly (readonly [string, Binding])[];
  private knownOutputs = 0;
  private readonly scope: BindingScope;
  private readonly observed = new Map<string, WorkflowNodeObservation>();
  private readonly progress: ProgressRelay<WorkflowProgress>;
  private readonly nodeProgress: ProgressRelay<WorkflowNodeProgress>;

  constructor(private readonly setup: RunSetup) {
    // Every node running listens to it: parallel branches are expected, not a leak to warn of.
    setMaxListeners(0, this.nodesController.signal);
    this.scope = { request: setup.request, outcome: (id) => this.outcomes.get(id) ?? PENDING };
    this.outputBindings = Object.entries(setup.plan.workflow.outputs);
    this.progress = new ProgressRelay(setup.onProgress, setup.plan.workflow.name, setup.context.services.logger);
    this.nodeProgress = new ProgressRelay(setup.onNodeProgress, setup.plan.workflow.name, setup.context.services.logger);
  }

  /** Runs the plan; resolves with the workflow's outputs (absent ones left out). */
  run(): Promise<Outputs> {
    const { plan, signal, deadline } = this.setup;
    return new Promise<Outputs>((resolve, reject) => {
      this.settle = { resolve, reject };
      if (signal?.aborted === true) {
        this.end(runCancelled(plan.workflow.name, signal.reason, []));
        return;
      }
      signal?.addEventListener('abort', this.onAbort, { once: true });
      if (deadline !== undefined) this.timer = setLongTimeout(this.onDeadline, deadline.waitMs);
      for (const id of plan.order) this.waiting.set(id, plan.nodes[id]?.dependencies.length ?? 0);
      for (const id of plan.order) if (!this.ended && this.waiting.get(id) === 0) this.ready(id);
      this.checkOutputs();
    });
  }

  private readonly onAbort = (): void => {
    this.end(runCancelled(this.setup.plan.workflow.name, this.setup.signal?.reason, [...this.running]));
  };

  private readonly onDeadline = (): void => {
    const { plan, deadline } = this.setup;
    if (deadline !== undefined) this.end(deadlineExceeded(plan.workflow.name, deadline, [...this.running]));
  };

  /** Every dependency of `id` has settled: skip it, or start it. */
  private ready(id: string): void {
    const planned = this.setup.plan.nodes[id];
    if (planned === undefined) return;
    const { node } = planned;
    if (skippedByUpstream(planned.dataDependencies, (dep) => this.scope.outcome(dep).status === 'skipped')) {
      this.skip(id, 'every node it takes values from was skipped');
      return;
    }
    if (node.when !== undefined) {
      let go: boolean;
      try {
        go = evaluateCondition(node.when, this.scope);
      } catch (error) {
        this.running.add(id);
        this.failed(id, error);
        return;
      }
      if (!go) {
        this.skip(id, '`when` is false');
        return;
      }
    }
    let list: readonly unknown[] | undefined;
    if (node.forEach !== undefined) {
      const source = resolveBinding(node.forEach, this.scope);
      if (source.status !== 'value') {
        this.skip(id, 'its `forEach` list has no value');
        return;
      }
      if (!Array.isArray(source.value)) {
        this.running.add(id);
        this.failed(id, new Error(`\`forEach\` got ${describeValue(source.value)}, not a list`));
        return;
      }
      list = source.value;
    }
    this.launch(id, list);
  }

  private launch(id: string, list: readonly unknown[] | undefined): void {
    const planned = this.setup.plan.nodes[id];
    if (planned === undefined) return;
    const { node } = planned;
    const { trace } = this.setup;
    this.running.add(id);
    trace.start(id);
    const inputsFor = (item: unknown): Outputs => {
      const itemScope: BindingScope = { ...this.scope, item };
      const inputs: Record<string, unknown> = {};
      for (const [name, binding] of Object.entries(node.inputs)) {
        const bound = resolveBinding(binding, itemScope);
        if (bound.status === 'value') setOwn(inputs, name, bound.value);
      }
      return inputs;
    };
    const observed = this.observe(id);
    const hooks = {
      attempt: (): void => {
        trace.attempt(id);
        observed?.attempt();
      },
      calls: (count: number): void => {
        trace.calls(id, count);
        observed?.calls(count);
      },
      element: (index: number, outputs: Outputs): void => {
        if (!this.ended && list !== undefined) this.progress.report({ node: id, index, count: list.length, outputs });
      },
    };
    // What the node calls (models, handlers, sub-workflows) is parented on the node's span when it is traced.
    const traced = observed?.traceContext;
    const context = traced === undefined ? this.setup.context : { ...this.setup.context, traceContext: traced };
    runNode(node, list, inputsFor, this.nodesController.signal, context, hooks).then(
      (outputs) => {
        this.completed(id, outputs, 'ok');
      },
      (error: unknown) => {
        this.failed(id, error);
      },
    );
  }

  private completed(id: string, outputs: Outputs, status: 'ok' | 'fallback', reason?: string, cause?: unknown): void {
    if (this.ended) return;
    this.running.delete(id);
    this.outcomes.set(id, { status: 'done', outputs });
    this.setup.trace.finish(id, status, reason);
    this.observedEnd(id, status, reason, cause);
    this.nodeProgress.report({ node: id, status, outputs });
    this.release(id);
  }

  private skip(id: string, reason: string, cause?: unknown): void {
    if (this.ended) return;
    this.running.delete(id);
    this.outcomes.set(id, SKIPPED);
    this.setup.trace.finish(id, 'skipped', reason);
    this.observedEnd(id, 'skipped', reason, cause);
    this.nodeProgress.report({ node: id, status: 'skipped' });
    this.release(id);
  }

  /** The observation of node `id`, started on first use; undefined when the run is not observed. */
  private observe(id: string): WorkflowNodeObservation | undefined {
    const observation = this.setup.observation;
    if (observation === undefined) return undefined;
    let node = this.observed.get(id);
    if (node === undefined) {
      node = observation.node(id, this.setup.plan.nodes[id]?.node.target.kind ?? 'unknown');
      this.observed.set(id, node);
    }
    return node;
  }

  private observedEnd(id: string, status: ObservedNodeStatus, reason?: string, cause?: unknown): void {
    this.observe(id)?.ended(status, reason, cause);
    this.observed.delete(id);
  }

  private failed(id: string, error: unknown): void {
    const node = this.setup.plan.nodes[id]?.node;
    if (this.ended || node === undefined) return;
    const failure = nodeFailure(this.setup.plan.workflow.name, node, error);
    const { logger } = this.setup.context.services;
    switch (node.onError.kind) {
      case 'skip':
        logger.warn('workflow node failed; skipping it', { workflow: this.setup.plan.workflow.name, node: id, error: failure.message });
        this.skip(id, failure.message, failure);
        return;
      case 'fallback':
        logger.warn('workflow node failed; using its fallback', { workflow: this.setup.plan.workflow.name, node: id, error: failure.message });
        this.completed(id, node.onError.outputs, 'fallback', failure.message, failure);
        return;
      case 'fail':
        this.running.delete(id);
        this.setup.trace.finish(id, 'failed', failure.message);
        this.observedEnd(id, 'failed', failure.message, failure);
        this.end(failure);
    }
  }

  /** `id` has settled: its dependents may be ready, and the outputs may now be known. */
  private release(id: string): void {
    for (const dependent of this.setup.plan.nodes[id]?.dependents ?? []) {
      const left = (this.waiting.get(dependent) ?? 0) - 1;
      this.waiting.set(dependent, left);
      if (left === 0 && !this.ended) this.ready(dependent);
    }
    this.checkOutputs();
  }

  /**
   * Ends the run once every output is known. Only the outputs not known yet are looked at again, so a run
   * costs the number of nodes plus the number of outputs, not their product.
   */
  private checkOutputs(): void {
    if (this.ended) return;
    for (let next = this.outputBindings[this.knownOutputs]; next !== undefined; next = this.outputBindings[this.knownOutputs]) {
      if (resolveBinding(next[1], this.scope).status === 'pending') return;
      this.knownOutputs += 1;
    }
    const outputs: Record<string, unknown> = {};
    for (const [name, binding] of this.outputBindings) {
      const bound = resolveBinding(binding, this.scope);
      if (bound.status === 'value') setOwn(outputs, name, bound.value);
    }
    this.end(undefined, outputs);
  }

  private end(error: Error | undefined, outputs: Outputs = {}): void {
    if (this.ended) return;
    this.ended = true;
    this.timer?.clear();
    this.setup.signal?.removeEventListener('abort', this.onAbort);
    this.nodesController.abort(error ?? new RunFinished());
    for (const id of [...this.observed.keys()]) this.observedEnd(id, 'cancelled');
    if (error === undefined) this.settle?.resolve(outputs);
    else this.settle?.reject(error);
  }
}
