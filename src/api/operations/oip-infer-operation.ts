import type { Tensor } from '../../sdk/tensor/index.js';
import type { InferenceCore } from '../../serving/core-interfaces/inference-core.js';
import type { WorkflowNodeProgress, WorkflowProgress } from '../../workflow/index.js';
import { calledWorkflow, type UnversionedCall } from '../workflow-calls/called-workflow.js';
import { withOipParameters } from '../request-knobs/knob-values.js';
import { checkRequestedWorkflowOutputs, workflowInputsOfOipTensors, workflowOutputToOipTensor } from '../workflow-calls/workflow-oip.js';
import type { OperationContext } from './operation-context.js';

/** What every OIP wire format decodes an infer request into; each adds how its answer is to be encoded. */
export interface DecodedOipInfer {
  readonly id?: string | undefined;
  readonly inputs: readonly Tensor[];
  /** Requested outputs in order; undefined means all. */
  readonly outputs?: readonly string[] | undefined;
  /** The request-level `parameters` (`priority`, `timeout` in microseconds, …). */
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** Who answers: a model version, or a workflow at its version, with the request's `id`. */
export interface OipAnswerer {
  readonly name: string;
  readonly version: string;
  readonly id: string | undefined;
}

/**
 * One OIP wire format (REST JSON and binary tensors, gRPC protobuf): how its request becomes tensors, how
 * outputs become its answer, and how its clients call a workflow without a version. Stateless; one per
 * transport.
 */
export interface OipCodec<Input, Decoded extends DecodedOipInfer, Encoded> extends UnversionedCall {
  decode(input: Input): Decoded;
  encode(answerer: OipAnswerer, outputs: readonly Tensor[], decoded: Decoded): Encoded;
}

/** Told of each intermediate answer of a workflow run (one per finished `forEach` call), encoded. */
export type OipProgress<Encoded> = (answer: Encoded, progress: WorkflowProgress) => void;

/** Told of each node of a workflow run as it settles, its outputs encoded (none for a skipped node). */
export type OipNodeProgress<Encoded> = (answer: Encoded, progress: WorkflowNodeProgress) => void;

/** What hears a workflow run's nodes: `consumer`, told of the nodes inside sub-workflows too when `nested`. */
export interface OipNodeWatch<Encoded> {
  readonly consumer: OipNodeProgress<Encoded>;
  readonly nested: boolean;
}

/**
 * Open Inference Protocol infer, whatever the transport: the model or workflow the request names, its
 * inputs decoded by the transport's codec, the request's budget narrowed by its own `parameters` (the
 * smaller timeout wins, a priority given replaces the edge's), the run, and the outputs it asked for
 * encoded by the same codec. REST's `/v2/models/{m}[/versions/{v}]/infer`, the inference lane and gRPC's
 * `ModelInfer` and `ModelStreamInfer` are adapters over it.
 */
export class OipInferOperation {
  constructor(private readonly core: InferenceCore) {}

  /**
   * The answer to one infer request naming `model` (a model or a workflow) and `version` (undefined for
   * the default); `progress` hears a workflow's intermediate results, and `nodeProgress`, asked when a
   * workflow's run is set up, what hears each of its nodes as it settles (undefined: nothing does).
   */
  async infer<Input, Decoded extends DecodedOipInfer, Encoded>(
    model: string,
    version: string | undefined,
    input: Input,
    codec: OipCodec<Input, Decoded, Encoded>,
    context: OperationContext,
    progress?: OipProgress<Encoded>,
    nodeProgress?: () => OipNodeWatch<Encoded> | undefined,
  ): Promise<Encoded> {
    if (calledWorkflow(this.core, model, version, codec) !== undefined) return this.runWorkflow(model, input, codec, context, progress, nodeProgress);
    this.core.registry.resolve(model, version); // an unknown model is refused whatever the body holds
    return this.runModel(model, version, codec.decode(input), codec, context);
  }

  private async runModel<Input, Decoded extends DecodedOipInfer, Encoded>(
    model: string,
    version: string | undefined,
    decoded: Decoded,
    codec: OipCodec<Input, Decoded, Encoded>,
    context: OperationContext,
  ): Promise<Encoded> {
    // Field by field, not spread: a request object opened with a spread cost the event loop about 5 µs
    // more per request on the way through the scheduler (head-only model, 16 connections).
    const answer = await this.core.inference.inferTensors({
      model,
      ...(version !== undefined ? { version } : {}),
      inputs: decoded.inputs,
      ...(decoded.outputs ? { outputs: decoded.outputs } : {}),
      budget: withOipParameters(context.budget, decoded.parameters),
      ...(context.gather === true ? { gather: true } : {}),
      api: context.api,
      ...(context.requestId !== undefined ? { requestId: context.requestId } : {}),
      ...(context.traceContext !== undefined ? { traceContext: context.traceContext } : {}),
    });
    return codec.encode({ name: answer.version.name, version: answer.version.version, id: decoded.id }, answer.result, decoded);
  }

  /** OIP tensors in and out of a workflow: its inputs by name, the outputs asked for (all when none). */
  private async runWorkflow<Input, Decoded extends DecodedOipInfer, Encoded>(
    name: string,
    input: Input,
    codec: OipCodec<Input, Decoded, Encoded>,
    context: OperationContext,
    progress: OipProgress<Encoded> | undefined,
    nodeProgress: (() => OipNodeWatch<Encoded> | undefined) | undefined,
  ): Promise<Encoded> {
    const workflow = this.core.workflows.get(name);
    const decoded = codec.decode(input);
    checkRequestedWorkflowOutputs(workflow.plan.workflow, decoded.outputs);
    const inputs = workflowInputsOfOipTensors(workflow.plan.workflow, decoded.inputs);
    const budget = withOipParameters(context.budget, decoded.parameters);
    const answerer: OipAnswerer = { name, version: workflow.version, id: decoded.id };
    const onProgress =
      progress &&
      ((step: WorkflowProgress): void => {
        const outputs = Object.entries(step.outputs).map(([output, value]) => workflowOutputToOipTensor(output, value));
        progress(codec.encode(answerer, outputs, decoded), step);
      });
    const nodes = nodeProgress?.();
    const onNodeProgress =
      nodes &&
      ((step: WorkflowNodeProgress): void => {
        const outputs = Object.entries(step.outputs ?? {}).map(([output, value]) => workflowOutputToOipTensor(output, value));
        nodes.consumer(codec.encode(answerer, outputs, decoded), step);
      });
    const { result } = await this.core.workflowService.run(name, inputs, {
      budget,
      ...(onProgress ? { onProgress } : {}),
      ...(onNodeProgress ? { onNodeProgress, ...(nodes.nested ? { nestedNodeProgress: true } : {}) } : {}),
      ...(context.traceContext !== undefined ? { traceContext: context.traceContext } : {}),
    });
    const wanted = decoded.outputs ?? Object.keys(result.outputs);
    const outputs = wanted.filter((n) => n in result.outputs).map((n) => workflowOutputToOipTensor(n, result.outputs[n]));
    return codec.encode(answerer, outputs, decoded);
  }
}
