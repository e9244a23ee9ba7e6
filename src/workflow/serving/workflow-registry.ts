import { SluiceError } from '../../sdk/errors/index.js';
import type { NodeHandler } from '../../sdk/node-handler/node-handler.js';
import type { WorkflowPlan, WorkflowProblem } from '../index.js';
import { STARTING_RETRY_AFTER_SECONDS } from '../../serving/model-registry.js';
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
  /**
   * The model versions its TorchServe spec registered itself (`<workflow>__<model>`), as TorchServe's
   * workflow registration does: unregistered with the workflow. A model it found registered is not among them.
   */
  readonly ownModels?: readonly OwnedModel[];
}

/** A model version a workflow registered itself. */
export interface OwnedModel {
  readonly name: string;
  readonly version: string;
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
  /** While start-up registers its workflows, a name not registered yet may still come: see {@link setStartingUp}. */
  private startingUp = false;

  /**
   * While `starting` is true (start-up has not registered its workflows yet), a workflow asked for by a name
   * that is not registered is `SLUICE_SERVER_STARTING` (503, retry) instead of `SLUICE_WORKFLOW_NOT_FOUND`,
   * as a model is: a load balancer is told to try again or elsewhere, not that the workflow does not exist.
   */
  setStartingUp(starting: boolean): void {
    this.startingUp = starting;
  }

  /** Whether start-up is still registering its workflows (see {@link setStartingUp}). */
  isStartingUp(): boolean {
    return this.startingUp;
  }

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

  /**
   * The workflow called `name`, or `SLUICE_WORKFLOW_NOT_FOUND` listing the registered ones
   * (`SLUICE_SERVER_STARTING` while start-up has not registered its workflows yet).
   */
  get(name: string): RegisteredWorkflow {
    const found = this.workflows.get(name);
    if (found === undefined) {
      if (this.startingUp) {
        throw new SluiceError(
          'SLUICE_SERVER_STARTING',
          `workflow \`${name}\` is not registered yet: the server is still loading its models and workflows; retry shortly, or on another replica`,
          { workflow: name, retryAfterSeconds: STARTING_RETRY_AFTER_SECONDS },
        );
      }
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
