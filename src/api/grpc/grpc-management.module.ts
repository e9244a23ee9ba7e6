import { Module, type DynamicModule } from '@nestjs/common';
import { ServingCore } from '../../serving/serving-core.js';
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
        { provide: ServingCore, useValue: core },
        { provide: PortHealth, useValue: health },
      ],
    };
  }
}
