import { Module, type DynamicModule } from '@nestjs/common';
import type { ServingCore } from '../../serving/serving-core.js';
import { SERVING_CORE } from '../../serving/core-interfaces/serving-core-token.js';
import { HealthController, PortHealth } from './health/health.controller.js';
import { OipInferenceController } from './inference/oip-inference.controller.js';
import { TorchServeInferenceController } from './inference/torchserve-inference.controller.js';

/** The gRPC inference port: Open Inference Protocol, TorchServe inference, health. */
@Module({})
export class GrpcInferenceModule {
  /** The module bound to a running serving core and the port's health. */
  static forCore(core: ServingCore, health: PortHealth): DynamicModule {
    return {
      module: GrpcInferenceModule,
      controllers: [OipInferenceController, TorchServeInferenceController, HealthController],
      providers: [
        { provide: SERVING_CORE, useValue: core },
        { provide: PortHealth, useValue: health },
      ],
    };
  }
}
