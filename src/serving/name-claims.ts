import { SluiceError } from '../common/errors/index.js';

/*
 * Models and workflows share one set of names: OIP `POST /v2/models/{name}/infer` and the gRPC `ModelInfer`,
 * `ModelStreamInfer`, `Predictions` and `StreamPredictions` calls look a name up among the models first and
 * the workflows second. A workflow named after a model (or a model named after a workflow) would leave one
 * of the two unreachable there without a word, so registration refuses the second of them.
 */

/**
 * Refuses the model name `name` when a workflow holds it (`workflowNamed(name)` is true), with
 * `SLUICE_MODEL_ALREADY_REGISTERED`. Other versions of a model of that name are no clash.
 */
export function checkModelNameFree(name: string, workflowNamed: (name: string) => boolean): void {
  if (!workflowNamed(name)) return;
  throw new SluiceError(
    'SLUICE_MODEL_ALREADY_REGISTERED',
    `cannot register model \`${name}\`: workflow \`${name}\` holds that name, and a model and a workflow cannot share one (POST /v2/models/${name}/infer and gRPC inference would reach only the model); register the model under another model_name, or unregister the workflow first (DELETE /workflows/${name})`,
    { name, heldBy: 'workflow' },
  );
}

/**
 * Refuses the workflow name `name` when a model holds it (`modelNamed(name)` is true), with
 * `SLUICE_MODEL_ALREADY_REGISTERED`. A workflow of that name is no clash: registering it again replaces it.
 */
export function checkWorkflowNameFree(name: string, modelNamed: (name: string) => boolean): void {
  if (!modelNamed(name)) return;
  throw new SluiceError(
    'SLUICE_MODEL_ALREADY_REGISTERED',
    `cannot register workflow \`${name}\`: model \`${name}\` holds that name, and a workflow and a model cannot share one (POST /v2/models/${name}/infer and gRPC inference would reach only the model); register the workflow under another workflow_name, or unregister the model first (DELETE /models/${name})`,
    { name, heldBy: 'model' },
  );
}
