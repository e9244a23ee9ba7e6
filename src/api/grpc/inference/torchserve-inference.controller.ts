import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { Metadata } from '@grpc/grpc-js';
import { Observable } from 'rxjs';
import { ServingCore } from '../../../serving/serving-core.js';
import type { GrpcCall } from '../common/grpc-call.js';
import { runPrediction, type PredictionResponse, type PredictionsRequest } from './torchserve-predictions.js';

const SERVICE = 'InferenceAPIsService';

/** TorchServe-compatible gRPC inference: `org.pytorch.serve.grpc.inference.InferenceAPIsService`. */
@Controller()
export class TorchServeInferenceController {
  constructor(@Inject(ServingCore) private readonly core: ServingCore) {}

  /** `{"status": "Healthy"}` when every model has at least its minimum of workers, else `Unhealthy`. */
  @GrpcMethod(SERVICE, 'Ping')
  ping(): { health: string } {
    return { health: JSON.stringify({ status: this.core.isHealthy() ? 'Healthy' : 'Unhealthy' }) };
  }

  /** One prediction with a model's handler (the default version when `model_version` is empty), or a workflow. */
  @GrpcMethod(SERVICE, 'Predictions')
  async predictions(request: PredictionsRequest, _metadata: Metadata, call: GrpcCall): Promise<PredictionResponse> {
    return runPrediction(this.core, request, call);
  }

  /**
   * A prediction as a stream: a workflow sends one message per finished `forEach` call (JSON
   * `{node, index, count, outputs}`) and then its answer; a model sends its answer.
   */
  @GrpcMethod(SERVICE, 'StreamPredictions')
  streamPredictions(request: PredictionsRequest, _metadata: Metadata, call: GrpcCall): Observable<PredictionResponse> {
    return new Observable<PredictionResponse>((subscriber) => {
      runPrediction(this.core, request, call, (prediction) => {
        subscriber.next({ prediction });
      }).then(
        (answer) => {
          subscriber.next(answer);
          subscriber.complete();
        },
        (error: unknown) => {
          subscriber.error(error);
        },
      );
    });
  }
}
