import { Module, type DynamicModule } from '@nestjs/common';
import type { ServingCore } from '../../../serving/serving-core.js';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import { ApiDescriptionController, apiDescriptionProvider } from '../openapi/api-description.controller.js';
import { ModelsController } from './models.controller.js';
import { WorkflowsController } from '../workflows/workflows.controller.js';

/** The management port: TorchServe-compatible model registration, scaling and description. */
@Module({})
export class ManagementApiModule {
  /** The module bound to a running serving core. */
  static forCore(core: ServingCore): DynamicModule {
    return {
      module: ManagementApiModule,
      controllers: [ModelsController, WorkflowsController, ApiDescriptionController],
      providers: [
        { provide: SERVING_CORE, useValue: core },
        apiDescriptionProvider('management', core),
      ],
    };
  }
}
