import type { Tensor } from '../../../../src/sdk/tensor/index.js';
import type { ModelDescription, NodeHandler, NodeHandlerContext } from '../../../../src/sdk/index.js';
import {
  createStaticCatalog,
  executeWorkflow,
  loadWorkflow,
  workflowSignature,
  type ExecuteOptions,
  type ModelCall,
  type WorkflowCatalog,
  type WorkflowPlan,
  type WorkflowResult,
  type WorkflowServices,
} from '../../../../src/workflow/index.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import type { WorkflowBuilder } from './workflow-builder.js';

type Values = Readonly<Record<string, unknown>>;

/** How a test handler behaves: its declared ports and what a call does. */
export interface TestHandlerSpec {
  readonly inputs: readonly string[];
  readonly outputs: NodeHandler['outputs'];
  readonly run: (inputs: Values, context: NodeHandlerContext) => Promise<Values>;
}

/**
 * Fake models and handlers for executor tests, with the catalog that describes them and the services
 * that run them. Records every model call and handler call in the order they started.
 */
export class WorkflowHarness {
  readonly started: string[] = [];
  readonly modelCalls: ModelCall[] = [];
  readonly logger = new RecordingLogger();
  private readonly handlers = new Map<string, NodeHandler>();
  private readonly models: ModelDescription[] = [];
  private readonly modelRuns = new Map<string, (call: ModelCall) => Promise<Readonly<Record<string, Tensor>>>>();
  private readonly plans = new Map<string, WorkflowPlan>();

  handler(name: string, spec: TestHandlerSpec): this {
    this.handlers.set(name, {
      name,
      inputs: spec.inputs,
      outputs: spec.outputs,
      run: (inputs, context) => {
        this.started.push(context.node);
        return spec.run(inputs, context);
      },
    });
    return this;
  }

  model(description: ModelDescription, run: (call: ModelCall) => Promise<Readonly<Record<string, Tensor>>>): this {
    this.models.push(description);
    this.modelRuns.set(`${description.name}@${description.version}`, run);
    return this;
  }

  /** The catalog of what is registered; `calls: false` leaves out which workflows the registered ones call. */
  catalog(options: { readonly calls?: boolean } = {}): WorkflowCatalog {
    const signatures = [...this.plans.values()].map((plan) => workflowSignature(plan.workflow));
    return createStaticCatalog({
      models: this.models,
      handlers: [...this.handlers.values()],
      workflows: options.calls === false ? signatures.map(({ calls: _calls, ...signature }) => signature) : signatures,
    });
  }

  services(): WorkflowServices {
    return {
      models: {
        infer: (call) => {
          this.modelCalls.push(call);
          this.started.push(call.node);
          const version = call.version ?? this.models.find((m) => m.name === call.model)?.version ?? '';
          const run = this.modelRuns.get(`${call.model}@${version}`);
          if (run === undefined) return Promise.reject(new Error(`no model ${call.model}`));
          return run(call);
        },
      },
      handler: (name) => this.handlers.get(name),
      workflow: (name) => this.plans.get(name),
      logger: this.logger,
    };
  }

  /** Loads the builder's workflow against this harness's catalog. */
  plan(builder: WorkflowBuilder): WorkflowPlan {
    return loadWorkflow(builder.text(), { file: `${builder.name}.yaml`, catalog: this.catalog() }).plan;
  }

  /** Loads the builder's workflow and registers it for `workflow:` nodes. */
  register(builder: WorkflowBuilder): WorkflowPlan {
    const plan = this.plan(builder);
    this.plans.set(plan.workflow.name, plan);
    return plan;
  }

  /**
   * Registers the builder's workflow as validated by a catalog that does not tell which workflows the
   * registered ones call: how deep its sub-workflows nest is then found out only when it runs.
   */
  registerUnchained(builder: WorkflowBuilder): WorkflowPlan {
    const plan = loadWorkflow(builder.text(), { file: `${builder.name}.yaml`, catalog: this.catalog({ calls: false }) }).plan;
    this.plans.set(plan.workflow.name, plan);
    return plan;
  }

  /** Forgets a registered workflow, as if it was unregistered after others were validated against it. */
  unregister(name: string): this {
    this.plans.delete(name);
    return this;
  }

  run(plan: WorkflowPlan, request: Values = {}, options: ExecuteOptions = {}): Promise<WorkflowResult> {
    return executeWorkflow(plan, request, this.services(), options);
  }
}

/** A handler that returns `outputs` computed from its inputs, at once. */
export function compute(inputs: readonly string[], outputNames: readonly string[], fn: (inputs: Values) => Values): TestHandlerSpec {
  return { inputs, outputs: Object.fromEntries(outputNames.map((name) => [name, {}])), run: (values) => Promise.resolve(fn(values)) };
}
