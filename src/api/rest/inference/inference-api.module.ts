import { Module, type DynamicModule } from '@nestjs/common';
import type { ServingCore } from '../../../serving/serving-core.js';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import { ApiDescriptionController, apiDescriptionProvider } from '../openapi/api-description.controller.js';
import { KServeV1Controller } from './kserve-v1.controller.js';
import { OipController } from './oip.controller.js';
import { PingController } from './ping.controller.js';
import { PredictionsController } from './predictions.controller.js';
import { WorkflowPredictionsController } from '../workflows/workflow-predictions.controller.js';

/** The inference port: TorchServe predictions, KServe v1, Open Inference Protocol v2. */
@Module({})
export class InferenceApiModule {
  /** The module bound to a running serving core. */
  static forCore(core: ServingCore): DynamicModule {
    return {
      module: InferenceApiModule,
      controllers: [PingController, PredictionsController, WorkflowPredictionsController, KServeV1Controller, OipController, ApiDescriptionController],
      providers: [
        { provide: SERVING_CORE, useValue: core },
        apiDescriptionProvider('inference', core),
      ],
    };
  }
}
