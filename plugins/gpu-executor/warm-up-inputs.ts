import { NUMERIC_DATATYPE_INFO, SluiceError, elementCount, type Tensor, type TensorSpec } from '../../src/plugins/sdk/index.js';

function warmUpShape(spec: TensorSpec, batchSize: number, rowShape: readonly number[] | undefined): number[] {
  const [first, ...rest] = spec.shape;
  if (first === undefined) return [];
  // A fixed first dimension is not a batch dimension: such a model only ever runs its declared shape.
  if (first !== -1) return spec.shape.map((dim) => (dim === -1 ? 1 : dim));
  return [batchSize, ...(rowShape ?? rest.map((dim) => (dim === -1 ? 1 : dim)))];
}

/**
 * Zero-filled inputs for a warm-up run of `batchSize` rows: each input's variable first dimension is
 * `batchSize`, and its other dimensions come from `rowShapes` (by input name) or from the model, with
 * variable ones set to 1. BYTES inputs get empty strings.
 */
export function warmUpInputs(specs: readonly TensorSpec[], batchSize: number, rowShapes: Readonly<Record<string, readonly number[]>> = {}): Tensor[] {
  const unknown = Object.keys(rowShapes).filter((name) => !specs.some((spec) => spec.name === name));
  if (unknown.length > 0) {
    throw new SluiceError(
      'SLUICE_MODEL_LOAD_FAILED',
      `warmUpShapes names ${unknown.map((n) => `\`${n}\``).join(', ')}, not an input of the model (inputs: ${specs.map((s) => s.name).join(', ')})`,
    );
  }
  return specs.map((spec) => {
    const shape = warmUpShape(spec, batchSize, rowShapes[spec.name]);
    const count = elementCount(shape);
    if (spec.datatype === 'BYTES') return { name: spec.name, datatype: 'BYTES', shape, data: Array.from({ length: count }, () => new Uint8Array(0)) };
    if (spec.datatype === 'BF16') throw new SluiceError('SLUICE_MODEL_LOAD_FAILED', `input \`${spec.name}\` is BF16, which Sluice cannot feed`);
    return { name: spec.name, datatype: spec.datatype, shape, data: new NUMERIC_DATATYPE_INFO[spec.datatype].array(count) };
  });
}
