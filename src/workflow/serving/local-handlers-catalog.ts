import type { NodeHandler } from '../../sdk/node-handler/node-handler.js';
import type { WorkflowCatalog } from '../index.js';

/** `catalog`, plus handlers that only one workflow uses. */
export function withLocalHandlers(catalog: WorkflowCatalog, handlers: ReadonlyMap<string, NodeHandler>): WorkflowCatalog {
  return {
    ...catalog,
    handler: (name) => handlers.get(name) ?? catalog.handler(name),
    handlerNames: () => [...handlers.keys(), ...catalog.handlerNames()],
  };
}
