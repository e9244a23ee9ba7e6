import { SluiceError } from '../../sdk/errors/index.js';
import type { HandlerRequest } from '../../sdk/handler/handler.js';
import type { EnvelopeRequest, EnvelopeResponse } from '../../sdk/envelope/envelope.js';
import type { InferenceCore } from '../../serving/core-interfaces/inference-core.js';
import type { WorkflowNodeProgress, WorkflowProgress } from '../../workflow/index.js';
import { calledWorkflow, type UnversionedCall } from '../workflow-calls/called-workflow.js';
import { chooseEnvelope } from '../bodies/envelope-choice.js';
import { workflowAnswerOf, workflowInputsFromBody } from '../workflow-calls/workflow-body.js';
import { workflowValueToJson } from '../workflow-calls/workflow-json.js';
import type { OperationContext } from './operation-context.js';

/**
 * A body that holds several requests of the handler, as TorchServe reads a `multipart/form-data` body:
 * each `data` (or `body`) part a request of its own, the other fields its parameters.
 */
export interface FormRequests {
  readonly kind: 'form';
  /** One per `data` or `body` part, in the body's order. */
  readonly requests: readonly HandlerRequest[];
  /** Every part by name, as a workflow takes them for its inputs (text fields as text, files as bytes). */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** What a codec reads a prediction body as: one request of the handler, or a form of several. */
export type PredictionBody = HandlerRequest | FormRequests;

function isForm(body: PredictionBody): body is FormRequests {
  return (body as Partial<FormRequests>).kind === 'form';
}

/** What the list of a form's requests is called in errors (`data[1]: …`). */
const FORM_LIST = 'data';

/** How one transport carries a TorchServe prediction body (an HTTP body with its media type, gRPC's `input` map). */
export interface PredictionsCodec<Input> {
  /**
   * The body as a handler (or a workflow's inputs) sees it: JSON parsed, bytes as they are; a form
   * (`multipart/form-data`) is read once the model is known, so it may be read asynchronously.
   */
  handlerRequest(input: Input): PredictionBody | Promise<PredictionBody>;
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

/** One settled node of a workflow, its outputs as JSON: what a streaming transport sends when asked for every node. */
export interface JsonNodeProgress {
  readonly node: string;
  readonly status: WorkflowNodeProgress['status'];
  readonly outputs?: unknown;
}

/** How a workflow run of a prediction is asked for and watched. */
export interface WorkflowPredictionOptions {
  /** Answer `{outputs, debug}` with per-node timings and the skipped nodes. */
  readonly debug?: boolean;
  /** Told of each finished `forEach` call while the run goes on. */
  readonly progress?: (progress: JsonProgress) => void;
  /** Told of each node as it settles (ok, fallback, skipped) while the run goes on. */
  readonly nodeProgress?: (progress: JsonNodeProgress) => void;
  /** Tell {@link nodeProgress} of the nodes inside sub-workflows too, named by their path (`outer.inner`). */
  readonly nestedNodes?: boolean;
}

/** The refusal of a form with no `data` or `body` part for a model, naming the parts it has. */
function noDataPart(form: FormRequests): SluiceError {
  const names = Object.keys(form.fields);
  return new SluiceError(
    'SLUICE_MULTIPART_INVALID',
    `the multipart/form-data body has no part named data or body${names.length > 0 ? ` (its parts: ${names.join(', ')})` : ''}; send the input as -F data=@file`,
  );
}

/**
 * A form as a workflow's body: a form of one `data` (or `body`) part and nothing else is that part's body
 * (an image sent with `-F data=@page.png` as if sent alone); any other form an object of its parts by name.
 */
function formWorkflowBody(form: FormRequests): unknown {
  const [only] = form.requests;
  return only !== undefined && form.requests.length === 1 && Object.keys(form.fields).length === 1 ? only.body : form.fields;
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
    const { gather, api, requestId, traceContext, partials } = context;
    if (chosen === undefined) {
      const read = codec.handlerRequest(input);
      // Only a form is read asynchronously: awaiting a body that is already there would cost a turn of the microtask queue.
      const body = read instanceof Promise ? await read : read;
      // A form of one data part answers as that part sent alone; of several, a list in the parts' order.
      if (isForm(body) && body.requests.length > 1) {
        const knobs = { model, version, budget, gather, api, requestId, traceContext };
        return { kind: 'answer', value: (await this.core.inference.predictEach({ ...knobs, requests: body.requests, listName: FORM_LIST })).result };
      }
      const request = isForm(body) ? body.requests[0] : body;
      if (request === undefined) throw noDataPart(body as FormRequests);
      const answer = await this.core.inference.predict({ model, version, budget, gather, api, requestId, traceContext, request, partials });
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
    const body = await codec.handlerRequest(input);
    const inputs = workflowInputsFromBody(isForm(body) ? formWorkflowBody(body) : body.body, workflow.plan.workflow);
    const { progress } = options;
    const debug = options.debug === true;
    const onProgress =
      progress &&
      ((step: WorkflowProgress): void => {
        progress({ ...step, outputs: workflowValueToJson(step.outputs) });
      });
    const { nodeProgress } = options;
    const onNodeProgress =
      nodeProgress &&
      ((step: WorkflowNodeProgress): void => {
        nodeProgress(step.outputs === undefined ? { node: step.node, status: step.status } : { ...step, outputs: workflowValueToJson(step.outputs) });
      });
    const { result } = await this.core.workflowService.run(name, inputs, {
      debug,
      ...(onNodeProgress ? { onNodeProgress, ...(options.nestedNodes === true ? { nestedNodeProgress: true } : {}) } : {}),
      budget: context.budget,
      ...(onProgress ? { onProgress } : {}),
      ...(context.traceContext !== undefined ? { traceContext: context.traceContext } : {}),
    });
    const outputs = workflowValueToJson(result.outputs) as Record<string, unknown>;
    if (debug) return { outputs, debug: result.debug };
    return workflowAnswerOf(outputs, workflow.plan.workflow);
  }
}
