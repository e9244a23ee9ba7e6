import type { NodeHandlerRegistry } from '../../plugins/registry/node-handler-registry.js';
import { workflowSignature, type WorkflowCatalog, type WorkflowSignature } from '../index.js';
import type { ModelRegistry } from '../../serving/model-registry.js';
import type { WorkflowRegistry } from './workflow-registry.js';

/** What the server's catalog looks things up in. */
export interface ServerCatalogSources {
  readonly models: ModelRegistry;
  readonly handlers: NodeHandlerRegistry;
  readonly workflows: WorkflowRegistry;
}

/**
 * The workflow catalog of a running server: the registered models with their tensor specs, the
 * registered node handlers and workflows. Read at validation time, so a workflow is checked against
 * what is registered when it is registered.
 */
export function createServerCatalog(sources: ServerCatalogSources): WorkflowCatalog {
  const { models, handlers, workflows } = sources;
  return {
    model(name, version) {
      if (!models.has(name, version)) return undefined;
      return models.resolve(name, version).description;
    },
    modelVersions(name) {
      return models.has(name) ? models.versionsOf(name).map((v) => v.version) : [];
    },
    modelNames() {
      return models.names();
    },
    handler(name) {
      return handlers.find(name);
    },
    handlerNames() {
      return handlers.names();
    },
    workflow(name): WorkflowSignature | undefined {
      const found = workflows.find(name);
      if (found === undefined) return undefined;
      return { ...workflowSignature(found.plan.workflow), name };
    },
    workflowNames() {
      return workflows.names();
    },
  };
}
