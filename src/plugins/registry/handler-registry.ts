import type { Handler } from '../../sdk/handler/handler.js';
import { NamedRegistry } from './named-registry.js';

/** Handlers by name (the `handler` key of model manifests). */
export class HandlerRegistry extends NamedRegistry<Handler> {
  constructor() {
    super('handler');
  }
}
