import { Module, type DynamicModule } from '@nestjs/common';
import { ServingCore } from '../../../serving/serving-core.js';
import { ApiDescriptionController, apiDescriptionProvider } from '../openapi/api-description.controller.js';
import { MetricsController } from './metrics.controller.js';

/** The metrics port: Prometheus text format, and its OpenAPI description. */
@Module({})
export class MetricsApiModule {
  /** The module bound to a running serving core. */
  static forCore(core: ServingCore): DynamicModule {
    return {
      module: MetricsApiModule,
      controllers: [MetricsController, ApiDescriptionController],
      providers: [{ provide: ServingCore, useValue: core }, apiDescriptionProvider('metrics', core)],
    };
  }
}
