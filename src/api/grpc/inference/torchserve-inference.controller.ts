import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod, GrpcStreamMethod } from '@nestjs/microservices';
import type { Metadata } from '@grpc/grpc-js';
import { Observable, concatMap } from 'rxjs';
import { grpcStatusOf } from '../../errors/error-mapping.js';
import { unexpectedError } from '../../errors/unexpected-error.js';
import { GrpcPartialSink } from '../calls/grpc-partial-sink.js';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { InferenceCore } from '../../../serving/core-interfaces/inference-core.js';
import type { ServerStatus } from '../../../serving/core-interfaces/server-status.js';
import { ENVELOPE_HEADER } from '../../bodies/envelope-choice.js';
import { PredictionsOperation, type WorkflowPredictionOptions } from '../../operations/predictions-operation.js';
import { metadataText, type GrpcCall } from '../calls/grpc-call.js';
import { withCallContext } from '../calls/grpc-operation-context.js';
import { progressLevelOf } from '../calls/grpc-progress.js';
import { PREDICTIONS_GRPC_CODEC, predictionBytes, predictionResponse, type PredictionResponse, type PredictionsRequest } from './predictions-grpc-codec.js';

const SERVICE = 'InferenceAPIsService';

/** How a gRPC client calls a workflow without a version. */
const UNVERSIONED = { unversioned: (): string => 'leave model_version empty' };

/**
 * TorchServe-compatible gRPC inference: `org.pytorch.serve.grpc.inference.InferenceAPIsService`.
 * Predictions are the transport-neutral {@link PredictionsOperation}, as REST's `/predictions/{model}` and
 * `/wfpredict/{workflow}` (for a name that is only a workflow's) run them, within the budget made at the
 * call's edge (its deadline, cancellation and metadata); `x-sluice-envelope` metadata asks for an envelope.
 */
@Controller()
export class TorchServeInferenceController {
  private readonly operation: PredictionsOperation;

  constructor(@Inject(SERVING_CORE) private readonly core: InferenceCore & ServerStatus) {
    this.operation = new PredictionsOperation(core);
  }

  /** `{"status": "Healthy"}` when every model has at least its minimum of workers, else `Unhealthy`. */
  @GrpcMethod(SERVICE, 'Ping')
  ping(): { health: string } {
    return { health: JSON.stringify({ status: this.core.isHealthy() ? 'Healthy' : 'Unhealthy' }) };
  }

  /** One prediction with a model's handler (the default version when `model_version` is empty), or a workflow. */
  @GrpcMethod(SERVICE, 'Predictions')
  async predictions(request: PredictionsRequest, _metadata: Metadata, call: GrpcCall): Promise<PredictionResponse> {
    return this.predict(request, call);
  }

  /**
   * A prediction as a stream: a workflow sends one message per finished `forEach` call (JSON
   * `{node, index, count, outputs}`), with `x-sluice-progress: nodes` metadata also one per node as it
   * settles (`{node, status, outputs}`; `nested`: sub-workflows' nodes too), and then its answer; a model sends one message per intermediate
   * answer of its handler (`sendPartial`), then its answer.
   */
  @GrpcMethod(SERVICE, 'StreamPredictions')
  streamPredictions(request: PredictionsRequest, _metadata: Metadata, call: GrpcCall): Observable<PredictionResponse> {
    return new Observable<PredictionResponse>((subscriber) => {
      const send = (answer: unknown): void => {
        subscriber.next({ prediction: predictionBytes(answer) });
      };
      const partials = new GrpcPartialSink(call, send);
      this.predict(request, call, send, partials)
        .then(
          (answer) => {
            subscriber.next(answer);
            subscriber.complete();
          },
          (error: unknown) => {
            subscriber.error(error);
          },
        )
        .finally(() => {
          partials.dispose();
        });
    });
  }

  /**
   * TorchServe's bidirectional streaming predictions: the requests of one stream answered in order, each
   * with its intermediate messages (a handler's partial answers, a workflow's per-element progress) and
   * then its answer, every message carrying the request's `sequenceId`. A request that fails answers a
   * message with its `status` (the gRPC code and the Sluice message) and an empty prediction, and the
   * stream goes on.
   */
  @GrpcStreamMethod(SERVICE, 'StreamPredictions2')
  streamPredictions2(requests: Observable<PredictionsRequest>, _metadata: Metadata, call: GrpcCall): Observable<PredictionResponse> {
    return requests.pipe(concatMap((request) => this.streamOne(request, call)));
  }

  private streamOne(request: PredictionsRequest, call: GrpcCall): Observable<PredictionResponse> {
    const sequence = typeof request.sequenceId === 'string' ? { sequenceId: request.sequenceId } : {};
    return new Observable<PredictionResponse>((subscriber) => {
      const send = (answer: unknown): void => {
        subscriber.next({ prediction: predictionBytes(answer), ...sequence });
      };
      const partials = new GrpcPartialSink(call, send);
      this.predict(request, call, send, partials)
        .then(
          (answer) => {
            subscriber.next({ ...answer, ...sequence });
          },
          (exception: unknown) => {
            const error = unexpectedError(exception);
            if (error.category === 'INTERNAL') this.core.logger.error('streamed prediction failed', { code: error.code, error: exception });
            subscriber.next({ prediction: new Uint8Array(0), ...sequence, status: { code: grpcStatusOf(error.category), message: error.message, details: [] } });
          },
        )
        .finally(() => {
          partials.dispose();
          subscriber.complete();
        });
    });
  }

  /**
   * The answer to `request`; `progress` hears a workflow's per-element progress (and each node as it
   * settles, when the call's metadata asks), `partials` a handler's.
   */
  private predict(request: PredictionsRequest, call: GrpcCall, progress?: (step: unknown) => void, partials?: GrpcPartialSink): Promise<PredictionResponse> {
    const version = request.model_version === '' ? undefined : request.model_version;
    const envelope = metadataText(call.metadata, ENVELOPE_HEADER);
    return withCallContext(
      call,
      async (context) =>
        predictionResponse(await this.operation.predict(request.model_name, version, envelope, request.input, PREDICTIONS_GRPC_CODEC, context, workflowOptions(call, progress))),
      partials,
    );
  }
}

/**
 * How a call runs a workflow: without a version, its progress to `progress` when it streams. The
 * metadata's `x-sluice-progress` is read when a workflow runs, so a model's call never trips on it.
 */
function workflowOptions(call: GrpcCall, progress: ((step: unknown) => void) | undefined): WorkflowPredictionOptions & typeof UNVERSIONED {
  if (progress === undefined) return UNVERSIONED;
  return {
    ...UNVERSIONED,
    progress,
    get nodeProgress() {
      return progressLevelOf(call.metadata) === 'calls' ? undefined : progress;
    },
    get nestedNodes() {
      return progressLevelOf(call.metadata) === 'nested';
    },
  };
}
