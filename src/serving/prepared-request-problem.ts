import { tensorDataProblem } from '../sdk/tensor/tensor-data-problem.js';
import type { Tensor } from '../sdk/tensor/index.js';

/**
 * What keeps `prepared`, what a handler's `preprocess` made of one request, from being tensors the model
 * can be given, or undefined when nothing does: it must hold a list of `inputs`, each a named tensor that
 * holds what its datatype and shape say. A fault here is the handler's, not the client's; whether the
 * tensors fit the model's inputs is checked after, against the specs, as for any request.
 */
export function preparedRequestProblem(prepared: unknown): string | undefined {
  const inputs = typeof prepared === 'object' && prepared !== null ? (prepared as { readonly inputs?: unknown }).inputs : undefined;
  if (!Array.isArray(inputs)) return 'it returned an entry without a list of `inputs`';
  for (let i = 0; i < inputs.length; i++) {
    const tensor: unknown = inputs[i];
    if (typeof tensor !== 'object' || tensor === null || typeof (tensor as { readonly name?: unknown }).name !== 'string') {
      return `its \`inputs[${i}]\` is not a tensor with a name`;
    }
    const problem = tensorDataProblem(tensor as Tensor);
    if (problem !== undefined) return `its input \`${(tensor as Tensor).name}\` does not hold what its datatype and shape say: ${problem}`;
  }
  return undefined;
}
