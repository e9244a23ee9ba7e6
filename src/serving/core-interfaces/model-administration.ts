import type { SluiceConfig } from '../../config/index.js';
import type { Logger } from '../../sdk/logging/logger.js';
import type { ModelManager } from '../model-manager.js';
import type { ModelLookup } from './model-lookup.js';

/**
 * What the model management APIs need of the serving core: the models, their manager, the log, and
 * whether registering and unregistering through the API is allowed (`modelApi`).
 */
export interface ModelAdministration extends ModelLookup {
  readonly manager: ModelManager;
  readonly logger: Logger;
  readonly config: Pick<SluiceConfig, 'modelApi'>;
}
