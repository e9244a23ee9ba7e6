import { Module, type DynamicModule } from '@nestjs/common';
import { ServingCore } from '../../../serving/serving-core.js';
import { MetricsController } from './metrics.controller.js';

/** The metrics port: Prometheus text format. */
@Module({})
export class MetricsApiModule {
  /** The module bound to a running serving core. */
  static forCore(core: ServingCore): DynamicModule {
    return { module: MetricsApiModule, controllers: [MetricsController], providers: [{ provide: ServingCore, useValue: core }] };
  }
}
