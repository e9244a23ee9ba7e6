import type { HandlerRequest } from '../../sdk/handler/handler.js';
import type { EnvelopeRequest, EnvelopeResponse } from '../../sdk/envelope/envelope.js';
import type { InferenceCore } from '../../serving/core-interfaces/inference-core.js';
import type { WorkflowProgress } from '../../workflow/index.js';
import { calledWorkflow, type UnversionedCall } from '../workflow-calls/called-workflow.js';
import { chooseEnvelope } from '../bodies/envelope-choice.js';
import { workflowAnswerOf, workflowInputsFromBody } from '../workflow-calls/workflow-body.js';
import { workflowValueToJson } from '../workflow-calls/workflow-json.js';
import type { OperationContext } from './operation-context.js';

/** How one transport carries a TorchServe prediction body (an HTTP body with its media type, gRPC's `input` map). */
export interface PredictionsCodec<Input> {
  /** The body as a handler (or a workflow's inputs) sees it: JSON parsed, bytes as they are. */
  handlerRequest(input: Input): HandlerRequest;
  /** The body as an envelope decodes it. */
  envelopeRequest(input: Input): EnvelopeRequest;
}

/**
 * A prediction's answer, for the transport to write: the handler's answer (or a workflow's, as JSON
 * data), written as the route writes a value; or what an envelope encoded, with its media type.
 */
export type PredictionAnswer = { readonly kind: 'answer'; readonly value: unknown } | { readonly kind: 'enveloped'; readonly response: EnvelopeResponse };

/** One finished `forEach` call of a workflow, its outputs as JSON: what a streaming transport sends before the answer. */
export interface JsonProgress {
  readonly node: string;
  readonly index: number;
  readonly count: number;
  readonly outputs: unknown;
}

/** How a workflow run of a prediction is asked for and watched. */
export interface WorkflowPredictionOptions {
  /** Answer `{outputs, debug}` with per-node timings and the skipped nodes. */
  readonly debug?: boolean;
  /** Told of each finished `forEach` call while the run goes on. */
  readonly progress?: (progress: JsonProgress) => void;
}

/**
 * TorchServe predictions, whatever the transport: a model's handler on the body (or the envelope the
 * request asks for, else the model's), within the request's budget; and a workflow on a body of its
 * inputs. REST's `/predictions/{m}[/{v}]`, `/wfpredict/{w}` and the inference lane, and gRPC's
 * `Predictions` and `StreamPredictions`, are adapters over it.
 */
export class PredictionsOperation {
  constructor(private readonly core: InferenceCore) {}

  /**
   * The answer of model `model` (`version` undefined for the default) to one body. `envelope` is the
   * envelope the request asks for, if any. With `workflows`, a name that is a workflow's (and no
   * model's) runs that workflow, as gRPC's `Predictions` does; they say how the transport's clients call
   * it without a version.
   */
  async predict<Input>(
    model: string,
    version: string | undefined,
    envelope: string | undefined,
    input: Input,
    codec: PredictionsCodec<Input>,
    context: OperationContext,
    workflows?: WorkflowPredictionOptions & UnversionedCall,
  ): Promise<PredictionAnswer> {
    if (workflows !== undefined && calledWorkflow(this.core, model, version, workflows) !== undefined) {
      return { kind: 'answer', value: await this.runWorkflow(model, input, codec, context, workflows) };
    }
    const resolved = this.core.registry.resolve(model, version); // an unknown model is refused whatever the body holds
    const chosen = chooseEnvelope(envelope, resolved.manifest.envelope, this.core.envelopes);
    // Read here, once the model and envelope are known to be good, and before the body is read: a bad
    // knob is refused at the step it always was.
    const budget = context.budget;
    const { gather, api, requestId, traceContext } = context;
    if (chosen === undefined) {
      const answer = await this.core.inference.predict({ model, version, budget, gather, api, requestId, traceContext, request: codec.handlerRequest(input) });
      return { kind: 'answer', value: answer.result };
    }
    const answer = await this.core.inference.predictEnveloped({ model, version, budget, gather, api, requestId, traceContext, envelope: chosen, body: codec.envelopeRequest(input) });
    return { kind: 'enveloped', response: answer.result };
  }

  /**
   * Runs workflow `name` on a body of its inputs (see {@link workflowInputsFromBody}) within the request's
   * budget, and answers as TorchServe does: a workflow with one output answers that output's value, several
   * an object keyed by output, as JSON data; with `debug`, `{outputs, debug}`.
   */
  async runWorkflow<Input>(name: string, input: Input, codec: PredictionsCodec<Input>, context: OperationContext, options: WorkflowPredictionOptions = {}): Promise<unknown> {
    const workflow = this.core.workflows.get(name);
    const inputs = workflowInputsFromBody(codec.handlerRequest(input).body, workflow.plan.workflow);
    const { progress } = options;
    const debug = options.debug === true;
    const onProgress =
      progress &&
      ((step: WorkflowProgress): void => {
        progress({ ...step, outputs: workflowValueToJson(step.outputs) });
      });
    const { result } = await this.core.workflowService.run(name, inputs, {
      debug,
      budget: context.budget,
      ...(onProgress ? { onProgress } : {}),
      ...(context.traceContext !== undefined ? { traceContext: context.traceContext } : {}),
    });
    const outputs = workflowValueToJson(result.outputs) as Record<string, unknown>;
    if (debug) return { outputs, debug: result.debug };
    return workflowAnswerOf(outputs, workflow.plan.workflow);
  }
}
