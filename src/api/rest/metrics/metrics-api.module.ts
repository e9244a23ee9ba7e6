import { Module, type DynamicModule } from '@nestjs/common';
import type { ServingCore } from '../../../serving/serving-core.js';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
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
      providers: [{ provide: SERVING_CORE, useValue: core }, apiDescriptionProvider('metrics', core)],
    };
  }
}
