import type { Tensor } from '../../../common/tensor/index.js';
import type { ServingCore } from '../../../serving/serving-core.js';
import type { WorkflowProgress } from '../../../workflow/index.js';
import { oipParameterKnobs } from '../../common/knob-values.js';
import { checkRequestedWorkflowOutputs, workflowInputsOfOipTensors, workflowOutputToOipTensor } from '../../common/workflow-oip.js';
import { calledWorkflow } from '../../common/called-workflow.js';
import { callKnobs, callSignal, deadlineMsOf, type GrpcCall } from '../common/grpc-call.js';
import { callTraceContext } from '../common/grpc-call-scope.js';
import { decodeModelInferRequest, type DecodedInferRequest } from './oip-grpc-decoder.js';
import { encodeModelInferResponse } from './oip-grpc-encoder.js';
import type { ModelInferRequest, ModelInferResponse } from './oip-messages.js';

/** Told of each intermediate answer of a streaming call (one per finished `forEach` call of a workflow). */
export type PartialAnswer = (response: ModelInferResponse) => void;

function smallest(...values: (number | undefined)[]): number | undefined {
  const set = values.filter((v): v is number => v !== undefined);
  return set.length === 0 ? undefined : Math.min(...set);
}

/**
 * Runs one `ModelInferRequest` through the same pipeline as REST's `/v2/models/{name}/infer`: a model
 * version through the inference service and its scheduler, or a workflow by name. The call's deadline
 * bounds the request in the scheduler (or the workflow run) and a cancelled call stops its queued work.
 */
export class OipInferRunner {
  constructor(private readonly core: ServingCore) {}

  /** The answer to `request`; `partial` hears a workflow's intermediate results. */
  async infer(request: ModelInferRequest, call: GrpcCall, partial?: PartialAnswer): Promise<ModelInferResponse> {
    const { model_name: model, model_version: version } = request;
    if (calledWorkflow(this.core, model, version === '' ? undefined : version, 'leave model_version empty') !== undefined) return this.runWorkflow(request, call, partial);
    this.core.registry.resolve(model, version === '' ? undefined : version); // an unknown model is NOT_FOUND whatever the request holds
    const decoded = decodeModelInferRequest(request);
    const cancellation = callSignal(call);
    try {
      const answer = await this.core.inference.inferTensors({
        model,
        ...(version !== '' ? { version } : {}),
        inputs: decoded.inputs,
        ...(decoded.outputs ? { outputs: decoded.outputs } : {}),
        ...callKnobs(call),
        ...oipParameterKnobs(decoded.parameters),
        signal: cancellation.signal,
        api: 'grpc',
        traceContext: callTraceContext(call),
      });
      return encodeModelInferResponse({ name: answer.version.name, version: answer.version.version, id: decoded.id }, answer.result, decoded.raw);
    } finally {
      cancellation.dispose();
    }
  }

  private async runWorkflow(request: ModelInferRequest, call: GrpcCall, partial: PartialAnswer | undefined): Promise<ModelInferResponse> {
    const name = request.model_name;
    const workflow = this.core.workflows.get(name);
    const decoded = decodeModelInferRequest(request);
    checkRequestedWorkflowOutputs(workflow.plan.workflow, decoded.outputs);
    const inputs = workflowInputsOfOipTensors(workflow.plan.workflow, decoded.inputs);
    const fromParameters = oipParameterKnobs(decoded.parameters);
    const fromMetadata = callKnobs(call);
    const timeoutMs = smallest(fromParameters.timeoutMs, deadlineMsOf(call), fromMetadata.timeoutMs);
    const priority = fromParameters.priority ?? fromMetadata.priority;
    const model = { name, version: workflow.version, id: decoded.id };
    const onProgress = partial && ((progress: WorkflowProgress): void => {
      partial(progressResponse(model, progress, decoded));
    });
    const cancellation = callSignal(call);
    try {
      const { result } = await this.core.workflowService.run(name, inputs, {
        signal: cancellation.signal,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        ...(priority !== undefined ? { priority } : {}),
        ...(onProgress ? { onProgress } : {}),
        traceContext: callTraceContext(call),
      });
      const wanted = decoded.outputs ?? Object.keys(result.outputs);
      const outputs = wanted.filter((n) => n in result.outputs).map((n) => workflowOutputToOipTensor(n, result.outputs[n]));
      return encodeModelInferResponse(model, outputs, decoded.raw);
    } finally {
      cancellation.dispose();
    }
  }
}

/** An intermediate answer: the outputs of one `forEach` call, named after the node in its parameters. */
function progressResponse(model: { name: string; version: string; id: string }, progress: WorkflowProgress, decoded: DecodedInferRequest): ModelInferResponse {
  const outputs: Tensor[] = Object.entries(progress.outputs).map(([name, value]) => workflowOutputToOipTensor(name, value));
  const response = encodeModelInferResponse(model, outputs, decoded.raw);
  return {
    ...response,
    parameters: {
      sluice_node: { string_param: progress.node },
      sluice_index: { int64_param: progress.index },
      sluice_count: { int64_param: progress.count },
    },
  };
}
