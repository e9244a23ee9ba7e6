import type { Logger } from '../../sdk/logging/logger.js';
import type { ModelManager } from '../model-manager.js';
import type { ModelLookup } from './model-lookup.js';

/** What the model management APIs need of the serving core: the models, their manager and the log. */
export interface ModelAdministration extends ModelLookup {
  readonly manager: ModelManager;
  readonly logger: Logger;
}
