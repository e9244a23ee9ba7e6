import type { ModelDescription } from '../../sdk/index.js';
import type { HandlerDescription, WorkflowCatalog, WorkflowSignature } from './workflow-catalog.js';

/** The contents of a {@link createStaticCatalog}. */
export interface StaticCatalogContents {
  /** Model versions; the first version listed for a name is its default. */
  readonly models?: readonly ModelDescription[];
  readonly handlers?: readonly HandlerDescription[];
  readonly workflows?: readonly WorkflowSignature[];
}

/** A catalog over fixed lists: for tests, tools, and servers that know everything up front. */
export function createStaticCatalog(contents: StaticCatalogContents): WorkflowCatalog {
  const models = contents.models ?? [];
  const handlers = new Map((contents.handlers ?? []).map((h) => [h.name, h]));
  const workflows = new Map((contents.workflows ?? []).map((w) => [w.name, w]));
  const modelNames = [...new Set(models.map((m) => m.name))];
  return {
    model: (name, version) => models.find((m) => m.name === name && (version === undefined || m.version === version)),
    modelVersions: (name) => models.filter((m) => m.name === name).map((m) => m.version),
    modelNames: () => modelNames,
    handler: (name) => handlers.get(name),
    handlerNames: () => [...handlers.keys()],
    workflow: (name) => workflows.get(name),
    workflowNames: () => [...workflows.keys()],
  };
}
