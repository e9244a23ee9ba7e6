import { SluiceError } from '../../../common/errors/index.js';
import type { HandlerRequest } from '../../../plugins/sdk/handler.js';
import type { ServingCore } from '../../../serving/serving-core.js';
import type { WorkflowProgress } from '../../../workflow/index.js';
import { handlerRequestFromBytes } from '../../common/handler-body.js';
import { workflowAnswerOf, workflowInputsFromBody } from '../../common/workflow-body.js';
import { workflowValueToJson } from '../../common/workflow-json.js';
import { calledWorkflow } from '../../common/called-workflow.js';
import { chooseEnvelope, ENVELOPE_HEADER } from '../../common/envelope-choice.js';
import { callKnobs, callSignal, deadlineMsOf, metadataText, type GrpcCall } from '../common/grpc-call.js';
import { callTraceContext } from '../common/grpc-call-scope.js';

/** `PredictionsRequest` as it looks in JavaScript. */
export interface PredictionsRequest {
  readonly model_name: string;
  readonly model_version: string;
  readonly input: Readonly<Record<string, Uint8Array>>;
}

/** `PredictionResponse`, as Sluice writes it. */
export interface PredictionResponse {
  readonly prediction: Uint8Array;
}

/**
 * The request body a handler sees: one `input` entry (TorchServe clients send `data`) is the whole body,
 * JSON when it looks like JSON and bytes otherwise, as REST reads a body without a media type; several
 * entries make an object of such values, keyed by entry.
 */
export function handlerRequestOfInput(input: Readonly<Record<string, Uint8Array>>): HandlerRequest {
  const entries = Object.entries(input);
  const [first, ...more] = entries;
  if (first === undefined) throw new SluiceError('SLUICE_REQUEST_INVALID', 'the request has no input; put the request body in input["data"]');
  if (more.length === 0) return handlerRequestFromBytes(first[1], '');
  return { body: Object.fromEntries(entries.map(([key, bytes]) => [key, handlerRequestFromBytes(bytes, '').body])), contentType: 'application/json' };
}

/** The body an envelope decodes: `input["data"]` (or `body`, or the only entry), as TorchServe clients send it. */
function envelopeBody(input: Readonly<Record<string, Uint8Array>>): Uint8Array {
  const body = input['data'] ?? input['body'] ?? (Object.keys(input).length === 1 ? Object.values(input)[0] : undefined);
  if (body === undefined) throw new SluiceError('SLUICE_REQUEST_INVALID', 'a model with an envelope takes its body in input["data"]');
  return body;
}

/** An answer as prediction bytes: bytes as they are, text as UTF-8, anything else as JSON. */
export function predictionBytes(answer: unknown): Uint8Array {
  if (answer instanceof Uint8Array) return answer;
  return Buffer.from(typeof answer === 'string' ? answer : JSON.stringify(answer ?? null), 'utf8');
}

/**
 * Runs a `PredictionsRequest` the way REST runs `/predictions/{model}` (and `/wfpredict/{workflow}` for a
 * name that is only a workflow's): the model's handler and scheduler with the call's deadline and
 * cancellation. `partial` hears a workflow's per-element progress as JSON `{node, index, count, outputs}`.
 */
export async function runPrediction(core: ServingCore, request: PredictionsRequest, call: GrpcCall, partial?: (prediction: Uint8Array) => void): Promise<PredictionResponse> {
  const { model_name: model, model_version: version } = request;
  if (calledWorkflow(core, model, version === '' ? undefined : version, 'leave model_version empty') !== undefined) {
    return { prediction: predictionBytes(await runWorkflow(core, request, call, partial)) };
  }
  const resolved = core.registry.resolve(model, version === '' ? undefined : version); // an unknown model is NOT_FOUND whatever the request holds
  const envelope = chooseEnvelope(metadataText(call.metadata, ENVELOPE_HEADER), resolved.manifest.envelope, core.envelopes);
  const cancellation = callSignal(call);
  const target = { model, ...(version !== '' ? { version } : {}), ...callKnobs(call), signal: cancellation.signal, api: 'grpc', traceContext: callTraceContext(call) };
  try {
    if (envelope !== undefined) {
      const answer = await core.inference.predictEnveloped({ ...target, envelope, body: { body: envelopeBody(request.input), contentType: '' } });
      return { prediction: predictionBytes(answer.result.body) };
    }
    const answer = await core.inference.predict({ ...target, request: handlerRequestOfInput(request.input) });
    return { prediction: predictionBytes(answer.result) };
  } finally {
    cancellation.dispose();
  }
}

async function runWorkflow(core: ServingCore, request: PredictionsRequest, call: GrpcCall, partial: ((prediction: Uint8Array) => void) | undefined): Promise<unknown> {
  const workflow = core.workflows.get(request.model_name);
  const inputs = workflowInputsFromBody(handlerRequestOfInput(request.input).body, workflow.plan.workflow);
  const knobs = callKnobs(call);
  const deadlineMs = deadlineMsOf(call);
  const timeoutMs = knobs.timeoutMs === undefined ? deadlineMs : Math.min(knobs.timeoutMs, deadlineMs ?? Infinity);
  const onProgress =
    partial &&
    ((progress: WorkflowProgress): void => {
      partial(predictionBytes({ ...progress, outputs: workflowValueToJson(progress.outputs) }));
    });
  const cancellation = callSignal(call);
  try {
    const { result } = await core.workflowService.run(request.model_name, inputs, {
      signal: cancellation.signal,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(knobs.priority !== undefined ? { priority: knobs.priority } : {}),
      ...(onProgress ? { onProgress } : {}),
      traceContext: callTraceContext(call),
    });
    return workflowAnswerOf(workflowValueToJson(result.outputs) as Record<string, unknown>, workflow.plan.workflow);
  } finally {
    cancellation.dispose();
  }
}
