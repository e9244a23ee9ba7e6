import { SluiceError } from '../sdk/errors/index.js';
import type { TensorSpec } from '../sdk/tensor/index.js';

function compatible(declared: TensorSpec, actual: TensorSpec): boolean {
  if (declared.datatype !== actual.datatype || declared.shape.length !== actual.shape.length) return false;
  return declared.shape.every((dim, i) => actual.shape[i] === -1 || actual.shape[i] === dim);
}

/**
 * The tensor specs a model version serves: the manifest's when it declares them (they may pin
 * variable dimensions but must agree with the model file), the model file's otherwise.
 */
export function resolveTensorSpecs(
  kind: 'input' | 'output',
  manifestPath: string,
  declared: readonly TensorSpec[] | undefined,
  actual: readonly TensorSpec[],
): readonly TensorSpec[] {
  if (declared === undefined) return actual;
  for (const spec of declared) {
    const match = actual.find((a) => a.name === spec.name);
    if (match === undefined) {
      throw new SluiceError(
        'SLUICE_MANIFEST_INVALID',
        `${manifestPath}: ${kind} \`${spec.name}\` is not in the model file; its ${kind}s are: ${actual.map((a) => a.name).join(', ')}`,
      );
    }
    if (!compatible(spec, match)) {
      throw new SluiceError(
        'SLUICE_MANIFEST_INVALID',
        `${manifestPath}: ${kind} \`${spec.name}\` is declared ${spec.datatype} [${spec.shape.join(',')}] but the model file has ${match.datatype} [${match.shape.join(',')}]; fix the manifest or omit ${kind}s to use the file's`,
      );
    }
  }
  if (kind === 'input') {
    const missing = actual.filter((a) => !declared.some((d) => d.name === a.name));
    if (missing.length > 0) {
      throw new SluiceError(
        'SLUICE_MANIFEST_INVALID',
        `${manifestPath}: the manifest lists inputs but not ${missing.map((m) => `\`${m.name}\``).join(', ')}; list every input or none`,
      );
    }
  }
  return declared;
}
