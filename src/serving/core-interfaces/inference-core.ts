import type { Envelope } from '../../sdk/envelope/envelope.js';
import type { Logger } from '../../sdk/logging/logger.js';
import type { NamedRegistry } from '../../plugins/registry/named-registry.js';
import type { WorkflowService } from '../../workflow/serving/workflow-service.js';
import type { InferenceService } from '../inference-service.js';
import type { WorkflowLookup } from './workflow-lookup.js';

/**
 * What the inference APIs need of the serving core: the models and workflows they name, inference and
 * workflow runs, the envelopes a model may answer in, and the log of failures.
 */
export interface InferenceCore extends WorkflowLookup {
  readonly inference: InferenceService;
  readonly workflowService: WorkflowService;
  readonly envelopes: NamedRegistry<Envelope>;
  readonly logger: Logger;
}
