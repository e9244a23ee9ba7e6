import type { NodeHandler } from '../../sdk/index.js';
import type { ModelDescription } from '../../sdk/index.js';
import type { WorkflowInputSpec } from '../definition/workflow-input-spec.js';

/** What validation needs to know about a handler: its name and declared inputs and outputs. */
export type HandlerDescription = Pick<NodeHandler, 'name' | 'inputs' | 'outputs'>;

/** What validation needs to know about a workflow a node calls: its inputs and output names. */
export interface WorkflowSignature {
  readonly name: string;
  readonly inputs: Readonly<Record<string, WorkflowInputSpec>>;
  readonly outputs: readonly string[];
  /**
   * The workflows its `workflow:` nodes call, so that a workflow calling back the one being validated is
   * refused; absent when unknown.
   */
  readonly calls?: readonly string[];
}

/**
 * What exists for workflows to use, as validation sees it: models with their tensor specs, handlers with
 * their declared inputs and outputs, and registered workflows. The server implements it over the model
 * registry, the handler registry and the workflow store; tests use {@link createStaticCatalog}.
 */
export interface WorkflowCatalog {
  /** The model version a node names (`version` undefined: the default version), or undefined. */
  model(name: string, version: string | undefined): ModelDescription | undefined;
  /** The versions registered under `name` (empty when no model has that name), for messages. */
  modelVersions(name: string): readonly string[];
  /** Every model name, for did-you-mean hints. */
  modelNames(): readonly string[];
  handler(name: string): HandlerDescription | undefined;
  handlerNames(): readonly string[];
  workflow(name: string): WorkflowSignature | undefined;
  workflowNames(): readonly string[];
}
