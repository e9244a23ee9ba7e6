import type { NodeHandler } from '../../sdk/node-handler/node-handler.js';
import { NamedRegistry } from './named-registry.js';

/** Workflow node handlers by full name (`ocr/crop-lines`), as workflows' `handler:` nodes name them. */
export class NodeHandlerRegistry extends NamedRegistry<NodeHandler> {
  constructor() {
    super('workflow handler');
  }
}
