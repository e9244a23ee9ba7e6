import { SluiceError } from '../../sdk/errors/index.js';
import type { NodeHandler } from '../../sdk/node-handler/node-handler.js';
import type { WorkflowPlan, WorkflowProblem } from '../index.js';
import type { ModelUse } from '../../serving/model-uses.js';

/** A registered workflow: its plan and where it came from. */
export interface RegisteredWorkflow {
  readonly name: string;
  /** `metadata.version` of its file. */
  readonly version: string;
  readonly plan: WorkflowPlan;
  readonly warnings: readonly WorkflowProblem[];
  /** The `url` it was registered from, as given. */
  readonly url: string;
  /** The file it was read from. */
  readonly file: string;
  /**
   * The workflow document its plan was made from (a TorchServe spec's conversion): validated again when
   * a workflow it calls is replaced.
   */
  readonly text: string;
  readonly registeredAt: Date;
  /** Handlers only this workflow uses (the nodes of a converted TorchServe spec). */
  readonly localHandlers?: ReadonlyMap<string, NodeHandler>;
  /** Models its local handlers call by name, at their default version (the model nodes of a converted TorchServe spec). */
  readonly handlerModels?: readonly string[];
}

/** How `entry` calls model `model`: once per model node naming it (with its version) and per local handler calling it. */
function usesOfModel(entry: RegisteredWorkflow, model: string): ModelUse[] {
  const uses: ModelUse[] = (entry.handlerModels ?? []).filter((m) => m === model).map(() => ({ workflow: entry.name, version: undefined }));
  for (const { node } of Object.values(entry.plan.nodes)) {
    if (node.target.kind === 'model' && node.target.model === model) uses.push({ workflow: entry.name, version: node.target.version });
  }
  return uses;
}

/**
 * Registered workflows by name. Registering a name again replaces its entry in one step: runs that
 * already started hold the old plan and finish on it, new runs get the new one.
 */
export class WorkflowRegistry {
  private readonly workflows = new Map<string, RegisteredWorkflow>();

  /** Adds or replaces the workflow `entry.name`; answers the entry it replaced. */
  put(entry: RegisteredWorkflow): RegisteredWorkflow | undefined {
    const previous = this.workflows.get(entry.name);
    this.workflows.set(entry.name, entry);
    return previous;
  }

  /** The workflow called `name`, or undefined. */
  find(name: string): RegisteredWorkflow | undefined {
    return this.workflows.get(name);
  }

  /** The workflow called `name`, or `SLUICE_WORKFLOW_NOT_FOUND` listing the registered ones. */
  get(name: string): RegisteredWorkflow {
    const found = this.workflows.get(name);
    if (found === undefined) {
      const known = this.names();
      throw new SluiceError(
        'SLUICE_WORKFLOW_NOT_FOUND',
        `workflow \`${name}\` is not registered; registered workflows: ${known.length > 0 ? known.join(', ') : 'none'}`,
        { workflow: name },
      );
    }
    return found;
  }

  /** Removes a workflow; answers it. */
  remove(name: string): RegisteredWorkflow {
    const found = this.get(name);
    this.workflows.delete(name);
    return found;
  }

  /** How the registered workflows use model `model`: one entry per node (or handler) that calls it. */
  modelUses(model: string): ModelUse[] {
    return [...this.workflows.values()].flatMap((entry) => usesOfModel(entry, model));
  }

  /** The registered workflows other than `name` whose `workflow:` nodes call `name`, by name. */
  callers(name: string): RegisteredWorkflow[] {
    return this.all().filter((entry) => entry.name !== name && Object.values(entry.plan.nodes).some(({ node }) => node.target.kind === 'workflow' && node.target.workflow === name));
  }

  /** Workflow names, sorted. */
  names(): string[] {
    return [...this.workflows.keys()].sort();
  }

  /** Every registered workflow, by name. */
  all(): RegisteredWorkflow[] {
    return this.names().map((name) => this.get(name));
  }
}
