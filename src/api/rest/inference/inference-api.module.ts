import { Module, type DynamicModule } from '@nestjs/common';
import { ServingCore } from '../../../serving/serving-core.js';
import { ApiDescriptionController, OPENAPI_DOCUMENT } from '../openapi/api-description.controller.js';
import { INFERENCE_ROUTES } from '../openapi/inference-routes.js';
import { buildOpenApiDocument } from '../openapi/route-doc.js';
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
        { provide: ServingCore, useValue: core },
        {
          provide: OPENAPI_DOCUMENT,
          useValue: buildOpenApiDocument('Sluice inference API', core.serverVersion, 'TorchServe, KServe v1 and Open Inference Protocol v2 inference.', INFERENCE_ROUTES),
        },
      ],
    };
  }
}
