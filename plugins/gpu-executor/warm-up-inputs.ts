import { NUMERIC_DATATYPE_INFO, SluiceError, elementCount, type Tensor, type TensorSpec } from '../../src/sdk/index.js';

function warmUpShape(spec: TensorSpec, batchSize: number, rowShape: readonly number[] | undefined): number[] {
  const [first, ...rest] = spec.shape;
  if (first === undefined) return [];
  const row = rowShape ?? rest.map((dim) => (dim === -1 ? 1 : dim));
  // A fixed first dimension is not a batch dimension: such a model only ever runs that many rows.
  return [first === -1 ? batchSize : first, ...row];
}

/**
 * What is wrong with `rowShapes` (the `warmUpShapes` option) for a model whose inputs are `specs`, one
 * line per bad entry: a name that is not an input, an input with no dimension after its first, or a row
 * shape whose length is not the number of the input's dimensions after its first. Empty when all fit.
 */
export function warmUpShapeProblems(specs: readonly TensorSpec[], rowShapes: Readonly<Record<string, readonly number[]>>): string[] {
  const problems: string[] = [];
  for (const [name, row] of Object.entries(rowShapes)) {
    const spec = specs.find((s) => s.name === name);
    if (spec === undefined) {
      problems.push(`\`${name}\` is not an input of the model (inputs: ${specs.map((s) => s.name).join(', ')})`);
    } else if (spec.shape.length < 2) {
      problems.push(`\`${name}\` has shape [${spec.shape.join(',')}], with no dimension after its first to set`);
    } else if (row.length !== spec.shape.length - 1) {
      problems.push(`\`${name}\` has shape [${spec.shape.join(',')}], so its row shape needs ${spec.shape.length - 1} dimension(s), got [${row.join(',')}]`);
    }
  }
  return problems;
}

/**
 * Zero-filled inputs for a warm-up run of `batchSize` rows: each input's variable first dimension is
 * `batchSize` (a fixed one stays as it is), and its other dimensions come from `rowShapes` (by input name)
 * or from the model, with variable ones set to 1. BYTES inputs get empty strings. `rowShapes` are assumed
 * to fit the inputs ({@link warmUpShapeProblems}).
 */
export function warmUpInputs(specs: readonly TensorSpec[], batchSize: number, rowShapes: Readonly<Record<string, readonly number[]>> = {}): Tensor[] {
  return specs.map((spec) => {
    const shape = warmUpShape(spec, batchSize, Object.hasOwn(rowShapes, spec.name) ? rowShapes[spec.name] : undefined);
    const count = elementCount(shape);
    if (spec.datatype === 'BYTES') return { name: spec.name, datatype: 'BYTES', shape, data: Array.from({ length: count }, () => new Uint8Array(0)) };
    if (spec.datatype === 'BF16') throw new SluiceError('SLUICE_MODEL_LOAD_FAILED', `input \`${spec.name}\` is BF16, which Sluice cannot feed`);
    return { name: spec.name, datatype: spec.datatype, shape, data: new NUMERIC_DATATYPE_INFO[spec.datatype].array(count) };
  });
}
