import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod, GrpcStreamMethod } from '@nestjs/microservices';
import type { Metadata } from '@grpc/grpc-js';
import { Observable, mergeMap } from 'rxjs';
import type { ModelVersion } from '../../../serving/model-version.js';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { InferenceCore } from '../../../serving/core-interfaces/inference-core.js';
import type { ServerStatus } from '../../../serving/core-interfaces/server-status.js';
import type { WorkflowNodeProgress, WorkflowProgress } from '../../../workflow/index.js';
import { OipInferOperation, type OipNodeWatch } from '../../operations/oip-infer-operation.js';
import type { GrpcCall } from '../calls/grpc-call.js';
import { withCallContext } from '../calls/grpc-operation-context.js';
import { progressLevelOf } from '../calls/grpc-progress.js';
import { unexpectedError } from '../../errors/unexpected-error.js';
import { OIP_GRPC_CODEC } from './oip-grpc-codec.js';
import { emptyFinalAnswer, streamErrorAnswer, wantsEmptyFinal, withinSendLimit } from './oip-stream-answers.js';
import type { ModelInferRequest, ModelInferResponse, ModelStreamInferResponse } from './oip-messages.js';

const SERVICE = 'GRPCInferenceService';

/** A model (and optional version; empty for the default) named in a request. */
interface ModelRef {
  readonly name: string;
  readonly version: string;
}

interface TensorMetadata {
  readonly name: string;
  readonly datatype: string;
  readonly shape: readonly number[];
}

/** An intermediate answer: the outputs of one `forEach` call, named after the node in its parameters. */
function progressResponse(response: ModelInferResponse, progress: WorkflowProgress): ModelInferResponse {
  return {
    ...response,
    parameters: {
      sluice_node: { string_param: progress.node },
      sluice_index: { int64_param: progress.index },
      sluice_count: { int64_param: progress.count },
    },
  };
}

/** An intermediate answer: the outputs of one settled node (none when skipped), named in its parameters with its status. */
function nodeProgressResponse(response: ModelInferResponse, progress: WorkflowNodeProgress): ModelInferResponse {
  return {
    ...response,
    parameters: {
      sluice_node: { string_param: progress.node },
      sluice_status: { string_param: progress.status },
    },
  };
}

/**
 * Open Inference Protocol (KServe v2) gRPC service: `inference.GRPCInferenceService`. Inference is the
 * transport-neutral {@link OipInferOperation}: a call's request in, its answer out, within the budget
 * made at the call's edge (its deadline, cancellation and metadata).
 */
@Controller()
export class OipInferenceController {
  private readonly oip: OipInferOperation;

  constructor(@Inject(SERVING_CORE) private readonly core: InferenceCore & ServerStatus) {
    this.oip = new OipInferOperation(core);
  }

  /** Live while the process serves calls. */
  @GrpcMethod(SERVICE, 'ServerLive')
  serverLive(): { live: boolean } {
    return { live: true };
  }

  /** Ready when not shutting down and every registered model version is ready. */
  @GrpcMethod(SERVICE, 'ServerReady')
  serverReady(): { ready: boolean } {
    return { ready: this.core.isReady() };
  }

  /** Readiness of a version (the default one when `version` is empty); NOT_FOUND for an unknown model. */
  @GrpcMethod(SERVICE, 'ModelReady')
  modelReady(request: ModelRef): { ready: boolean } {
    return { ready: this.resolve(request).isReady() };
  }

  @GrpcMethod(SERVICE, 'ServerMetadata')
  serverMetadata(): { name: string; version: string; extensions: string[] } {
    return { name: 'sluice', version: this.core.serverVersion, extensions: [] };
  }

  /** A version's inputs and outputs (`-1` for variable dimensions), and every version of the model. */
  @GrpcMethod(SERVICE, 'ModelMetadata')
  modelMetadata(request: ModelRef): { name: string; versions: string[]; platform: string; inputs: TensorMetadata[]; outputs: TensorMetadata[] } {
    const version = this.resolve(request);
    return {
      name: version.name,
      versions: this.core.registry.versionsOf(version.name).map((v) => v.version),
      platform: 'onnxruntime_onnx',
      inputs: version.description.inputs.map((spec) => ({ ...spec })),
      outputs: version.description.outputs.map((spec) => ({ ...spec })),
    };
  }

  /** One inference with a model version, or a workflow by name. */
  @GrpcMethod(SERVICE, 'ModelInfer')
  async modelInfer(request: ModelInferRequest, _metadata: Metadata, call: GrpcCall): Promise<ModelInferResponse> {
    return this.infer(request, call);
  }

  /**
   * Inference calls over one stream, answered as each finishes (match them by `id`). A workflow answers one
   * intermediate response per finished `forEach` call (parameters `sluice_node`, `sluice_index`,
   * `sluice_count`) before its result; with `x-sluice-progress: nodes` metadata, also one per node as it
   * settles (parameters `sluice_node`, `sluice_status`; its outputs; `nested`: sub-workflows' nodes too,
   * named by their path). A request that fails answers `error_message` (and the Sluice error
   * code in the `sluice_error_code` parameter) without ending the stream; so does one whose answer is over
   * `grpc.maxSendMessageBytes`. Every answer carries `triton_final_response`, true on a request's last;
   * a request with `triton_enable_empty_final_response` (as Triton's clients of decoupled models send it)
   * gets its result with `triton_final_response` false and then an empty answer with it true.
   */
  @GrpcStreamMethod(SERVICE, 'ModelStreamInfer')
  modelStreamInfer(requests: Observable<ModelInferRequest>, _metadata: Metadata, call: GrpcCall): Observable<ModelStreamInferResponse> {
    return requests.pipe(mergeMap((request) => this.streamOne(request, call)));
  }

  private streamOne(request: ModelInferRequest, call: GrpcCall): Observable<ModelStreamInferResponse> {
    return new Observable<ModelStreamInferResponse>((subscriber) => {
      const answer = (response: ModelInferResponse, final: boolean): void => {
        const message = { error_message: '', infer_response: { ...response, parameters: { ...response.parameters, triton_final_response: { bool_param: final } } } };
        subscriber.next(withinSendLimit(message, request, call, final));
      };
      const emptyFinal = wantsEmptyFinal(request);
      const nodes = (): OipNodeWatch<ModelInferResponse> | undefined => {
        const level = progressLevelOf(call.metadata);
        if (level === 'calls') return undefined;
        const consumer = (partial: ModelInferResponse, step: WorkflowNodeProgress): void => {
          answer(nodeProgressResponse(partial, step), false);
        };
        return { consumer, nested: level === 'nested' };
      };
      this.infer(
        request,
        call,
        (partial, progress) => {
          answer(progressResponse(partial, progress), false);
        },
        nodes,
      )
        .then(
          (response) => {
            answer(response, !emptyFinal);
            if (emptyFinal) subscriber.next(emptyFinalAnswer(request, response.model_name, response.model_version));
          },
          (exception: unknown) => {
            const error = unexpectedError(exception);
            if (error.category === 'INTERNAL') this.core.logger.error('streamed inference failed', { code: error.code, error: exception });
            subscriber.next(streamErrorAnswer(request, error.message, error.code));
          },
        )
        .finally(() => {
          subscriber.complete();
        });
    });
  }

  /** The answer to one request of `call`; `progress` hears a workflow's intermediate answers, what `nodes` gives its settled nodes. */
  private infer(
    request: ModelInferRequest,
    call: GrpcCall,
    progress?: (partial: ModelInferResponse, step: WorkflowProgress) => void,
    nodes?: () => OipNodeWatch<ModelInferResponse> | undefined,
  ): Promise<ModelInferResponse> {
    const version = request.model_version === '' ? undefined : request.model_version;
    return withCallContext(call, (context) => this.oip.infer(request.model_name, version, request, OIP_GRPC_CODEC, context, progress, nodes));
  }

  private resolve(request: ModelRef): ModelVersion {
    return this.core.registry.resolve(request.name, request.version === '' ? undefined : request.version);
  }
}
