import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { onnxElementType } from '../../scripts/onnx/onnx-element-type.js';
import { OnnxGraphBuilder, type DimSpec } from '../../scripts/onnx/onnx-graph-builder.js';
import type { Datatype } from '../../src/sdk/tensor/index.js';

/** Writes `bytes` to `dir/fileName` and returns the path. */
async function writeModel(dir: string, fileName: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, fileName);
  await writeFile(path, bytes);
  return path;
}

/**
 * An Identity model: input `input` → output `output`, both of `datatype` and `shape` (`-1` and strings
 * are symbolic dimensions, `null` an unspecified one). Works for every datatype ONNX Runtime has,
 * which makes it the round-trip model for tensor conversion. Written to `identity-<datatype>.onnx`.
 */
export function writeIdentityModel(dir: string, datatype: Datatype, shape: readonly DimSpec[] = [-1, -1]): Promise<string> {
  const bytes = new OnnxGraphBuilder('identity')
    .input('input', datatype, shape)
    .node('Identity', ['input'], ['output'])
    .output('output', datatype, shape)
    .encode();
  return writeModel(dir, `identity-${datatype.toLowerCase()}.onnx`, bytes);
}

/**
 * An Add model: inputs `a` and `b` → output `sum`, all of `datatype` and `shape` (default FP32
 * `[-1, 3]`). Feeding `a` and `b` with different batch sizes makes ONNX Runtime fail at run time,
 * which exercises inference errors. Written to `add-<datatype>.onnx`.
 */
export function writeAddModel(dir: string, datatype: Datatype = 'FP32', shape: readonly DimSpec[] = [-1, 3]): Promise<string> {
  const bytes = new OnnxGraphBuilder('add')
    .input('a', datatype, shape)
    .input('b', datatype, shape)
    .node('Add', ['a', 'b'], ['sum'])
    .output('sum', datatype, shape)
    .encode();
  return writeModel(dir, `add-${datatype.toLowerCase()}.onnx`, bytes);
}

/**
 * Two inputs of different datatypes and two outputs: `x` FP32 `[N, 3]` and `ids` INT64 `[N]` →
 * `doubled` FP32 `[N, 3]` (`x * 2`) and `ids_plus_one` INT64 `[N]` (`ids + 1`). Outputs are declared in
 * that order. Written to `two-in-two-out.onnx`.
 */
export function writeTwoInputTwoOutputModel(dir: string): Promise<string> {
  const bytes = new OnnxGraphBuilder('two_in_two_out')
    .input('x', 'FP32', [-1, 3])
    .input('ids', 'INT64', [-1])
    .initializer('two', 'FP32', [], new Float32Array([2]))
    .initializer('one', 'INT64', [], new BigInt64Array([1n]))
    .node('Mul', ['x', 'two'], ['doubled'])
    .node('Add', ['ids', 'one'], ['ids_plus_one'])
    .output('doubled', 'FP32', [-1, 3])
    .output('ids_plus_one', 'INT64', [-1])
    .encode();
  return writeModel(dir, 'two-in-two-out.onnx', bytes);
}

/**
 * A table lookup: input `ids` INT64 `[N]` → `Gather` from the table `[10, 11, 12, 13, 14]` → output
 * `values` FP32 `[N]`. An id outside -5..4 makes ONNX Runtime fail the run, which exercises failures that
 * depend on a request's values rather than its shape. Written to `lookup.onnx`.
 */
export function writeLookupModel(dir: string): Promise<string> {
  const bytes = new OnnxGraphBuilder('lookup')
    .input('ids', 'INT64', [-1])
    .initializer('table', 'FP32', [5], new Float32Array([10, 11, 12, 13, 14]))
    .node('Gather', ['table', 'ids'], ['values'], { axis: 0 })
    .output('values', 'FP32', [-1])
    .encode();
  return writeModel(dir, 'lookup.onnx', bytes);
}

/**
 * A model whose output is as large as its input asks: input `shape` INT64 `[2]` → `ConstantOfShape` →
 * output `zeros` FP32 `[rows, columns]`, all zeros. Written to `zeros.onnx`.
 */
export function writeZerosOfShapeModel(dir: string): Promise<string> {
  const bytes = new OnnxGraphBuilder('zeros_of_shape')
    .input('shape', 'INT64', [2])
    .node('ConstantOfShape', ['shape'], ['zeros'])
    .output('zeros', 'FP32', [-1, -1])
    .encode();
  return writeModel(dir, 'zeros.onnx', bytes);
}

/**
 * A model that runs any number of rows but zero, as models whose graph reshapes by the row count do:
 * input `input` FP32 `[N, 2]` → `Reshape` to `[N, -1]` (`0` copies the row count; with zero rows the `-1`
 * cannot be inferred, and ONNX Runtime fails the run) → output `output` FP32 `[N, 2]`. Written to
 * `no-zero-rows.onnx`.
 */
export function writeNoZeroRowsModel(dir: string): Promise<string> {
  const bytes = new OnnxGraphBuilder('no_zero_rows')
    .input('input', 'FP32', [-1, 2])
    .initializer('rows_by_any', 'INT64', [2], new BigInt64Array([0n, -1n]))
    .node('Reshape', ['input', 'rows_by_any'], ['output'])
    .output('output', 'FP32', [-1, 2])
    .encode();
  return writeModel(dir, 'no-zero-rows.onnx', bytes);
}

/**
 * A model with a fixed shape and no batch dimension: input `input` FP32 `[2, 3]` → `Relu` → output
 * `output` FP32 `[2, 3]`. Written to `fixed-shape.onnx`.
 */
export function writeFixedShapeModel(dir: string): Promise<string> {
  const bytes = new OnnxGraphBuilder('fixed_shape')
    .input('input', 'FP32', [2, 3])
    .node('Relu', ['input'], ['output'])
    .output('output', 'FP32', [2, 3])
    .encode();
  return writeModel(dir, 'fixed-shape.onnx', bytes);
}

/**
 * A valid ONNX model with a BF16 input (`input` BF16 `[N]` → `Cast` → `output` FP32 `[N]`), which
 * onnxruntime-node cannot load, so Sluice must report a load failure. Written to `bf16-input.onnx`.
 */
export function writeBf16InputModel(dir: string): Promise<string> {
  const bytes = new OnnxGraphBuilder('bf16_input')
    .input('input', 'BF16', [-1])
    .node('Cast', ['input'], ['output'], { to: onnxElementType('FP32') })
    .output('output', 'FP32', [-1])
    .encode();
  return writeModel(dir, 'bf16-input.onnx', bytes);
}

/** A file with a `.onnx` name that is not an ONNX model. Written to `garbage.onnx`. */
export function writeGarbageModel(dir: string): Promise<string> {
  return writeModel(dir, 'garbage.onnx', new TextEncoder().encode('this is not an ONNX model\n'));
}
