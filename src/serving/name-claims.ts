import { SluiceError } from '../sdk/errors/index.js';

/*
 * Models and workflows share one set of names: OIP `POST /v2/models/{name}/infer` and the gRPC `ModelInfer`,
 * `ModelStreamInfer`, `Predictions` and `StreamPredictions` calls look a name up among the models first and
 * the workflows second. A workflow named after a model (or a model named after a workflow) would leave one
 * of the two unreachable there without a word, so registration refuses the second of them.
 */

type Kind = 'model' | 'workflow';

/** What to do about a name `holder` holds: the parameter to change, and how to free the name. */
const REMEDY: Readonly<Record<Kind, { readonly parameter: string; readonly route: string }>> = {
  model: { parameter: 'model_name', route: 'models' },
  workflow: { parameter: 'workflow_name', route: 'workflows' },
};

function nameTaken(wanted: Kind, holder: Kind, name: string): SluiceError {
  return new SluiceError(
    'SLUICE_MODEL_ALREADY_REGISTERED',
    `cannot register ${wanted} \`${name}\`: ${holder} \`${name}\` holds that name, and ${wanted === 'model' ? 'a model and a workflow' : 'a workflow and a model'} cannot share one (POST /v2/models/${name}/infer and gRPC inference would reach only the model); register the ${wanted} under another ${REMEDY[wanted].parameter}, or unregister the ${holder} first (DELETE /${REMEDY[holder].route}/${name})`,
    { name, heldBy: holder },
  );
}

/**
 * Refuses the model name `name` when a workflow holds it (`workflowNamed(name)` is true), with
 * `SLUICE_MODEL_ALREADY_REGISTERED`. Other versions of a model of that name are no clash.
 */
export function checkModelNameFree(name: string, workflowNamed: (name: string) => boolean): void {
  if (workflowNamed(name)) throw nameTaken('model', 'workflow', name);
}

/**
 * Refuses the workflow name `name` when a model holds it (`modelNamed(name)` is true), with
 * `SLUICE_MODEL_ALREADY_REGISTERED`. A workflow of that name is no clash: registering it again replaces it.
 */
export function checkWorkflowNameFree(name: string, modelNamed: (name: string) => boolean): void {
  if (modelNamed(name)) throw nameTaken('workflow', 'model', name);
}
