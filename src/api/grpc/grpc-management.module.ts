import { Module, type DynamicModule } from '@nestjs/common';
import type { ServingCore } from '../../serving/serving-core.js';
import { SERVING_CORE } from '../../serving/core-interfaces/serving-core-token.js';
import { HealthController, PortHealth } from './health/health.controller.js';
import { TorchServeManagementController } from './management/torchserve-management.controller.js';

/** The gRPC management port: TorchServe management, health. */
@Module({})
export class GrpcManagementModule {
  /** The module bound to a running serving core and the port's health. */
  static forCore(core: ServingCore, health: PortHealth): DynamicModule {
    return {
      module: GrpcManagementModule,
      controllers: [TorchServeManagementController, HealthController],
      providers: [
        { provide: SERVING_CORE, useValue: core },
        { provide: PortHealth, useValue: health },
      ],
    };
  }
}
