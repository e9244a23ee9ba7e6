import { elementCount, type Datatype, type TensorData } from '../../src/sdk/tensor/index.js';
import { onnxElementType } from './onnx-element-type.js';
import { onnx, type OnnxProto } from './onnx-proto.js';

/**
 * ONNX IR version written into every model. IR 8 is what opset 17 was released with and what the
 * bundled `onnx-proto` schema describes; ONNX Runtime 1.30 reads it.
 */
export const ONNX_IR_VERSION = 8;

/** Default-domain opset the builder declares unless told otherwise. */
export const DEFAULT_OPSET_VERSION = 17;

/**
 * One dimension of a declared shape: a size (`>= 0`); `-1` for a symbolic dimension, named `N` on the
 * first axis and `D<axis>` on the others; a string for a symbolic dimension with that name; or `null`
 * for a dimension the model leaves entirely unspecified.
 */
export type DimSpec = number | string | null;

/** A `FLOAT` attribute; plain numbers are written as `INT` attributes. */
export interface FloatAttribute {
  readonly float: number;
}

/** A `FLOATS` attribute; plain number arrays are written as `INTS` attributes. */
export interface FloatsAttribute {
  readonly floats: readonly number[];
}

/**
 * A node attribute: an integer (`INT`), an integer list (`INTS`), a string (`STRING`), or a tagged
 * float ({@link FloatAttribute}) or float list ({@link FloatsAttribute}).
 */
export type AttributeValue = number | readonly number[] | string | FloatAttribute | FloatsAttribute;

/** Options for {@link OnnxGraphBuilder}. */
export interface OnnxGraphBuilderOptions {
  /** Default-domain opset; {@link DEFAULT_OPSET_VERSION} when omitted. */
  readonly opsetVersion?: number;
  /** Free text stored as the model's `doc_string`. */
  readonly docString?: string;
}

const utf8 = new TextEncoder();

/**
 * A small fluent builder for single-graph ONNX models in the default domain. Everything is written in
 * the order it is declared and nothing depends on time or randomness, so the same calls always encode
 * to the same bytes.
 *
 * @example
 * ```ts
 * const bytes = new OnnxGraphBuilder('double')
 *   .input('x', 'FP32', [-1, 3])
 *   .initializer('two', 'FP32', [], new Float32Array([2]))
 *   .node('Mul', ['x', 'two'], ['y'])
 *   .output('y', 'FP32', [-1, 3])
 *   .encode();
 * ```
 */
export class OnnxGraphBuilder {
  private readonly inputs: OnnxProto.IValueInfoProto[] = [];
  private readonly outputs: OnnxProto.IValueInfoProto[] = [];
  private readonly initializers: OnnxProto.ITensorProto[] = [];
  private readonly nodes: OnnxProto.INodeProto[] = [];

  constructor(
    private readonly graphName: string,
    private readonly options: OnnxGraphBuilderOptions = {},
  ) {}

  /** Declares a graph input. */
  input(name: string, datatype: Datatype, shape: readonly DimSpec[]): this {
    this.inputs.push(valueInfo(name, datatype, shape));
    return this;
  }

  /** Declares a graph output; some node (or an input) must produce a value of this name. */
  output(name: string, datatype: Datatype, shape: readonly DimSpec[]): this {
    this.outputs.push(valueInfo(name, datatype, shape));
    return this;
  }

  /**
   * Adds a constant tensor. Numeric data is stored as little-endian `raw_data` (FP16 as its raw bits,
   * BOOL as 0/1 bytes); BYTES elements are stored as `string_data`.
   */
  initializer(name: string, datatype: Datatype, shape: readonly number[], data: TensorData): this {
    const expected = elementCount(shape);
    if (data.length !== expected) {
      throw new Error(`initializer ${name}: shape [${shape.join(', ')}] needs ${expected} elements, got ${data.length}`);
    }
    const tensor: OnnxProto.ITensorProto = { name, dims: [...shape], dataType: onnxElementType(datatype) };
    if (isByteStrings(data)) {
      tensor.stringData = data.map((element) => Uint8Array.from(element));
    } else {
      // Every platform Node runs on is little-endian, as ONNX raw_data is.
      tensor.rawData = new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    }
    this.initializers.push(tensor);
    return this;
  }

  /** Adds a node of `opType`; its name defaults to `<opType>_<index>`. */
  node(
    opType: string,
    inputs: readonly string[],
    outputs: readonly string[],
    attributes: Readonly<Record<string, AttributeValue>> = {},
    name = `${opType}_${this.nodes.length}`,
  ): this {
    this.nodes.push({
      name,
      opType,
      input: [...inputs],
      output: [...outputs],
      attribute: Object.entries(attributes).map(([key, value]) => attribute(key, value)),
    });
    return this;
  }

  /** The model as a protobuf message object. */
  toModelProto(): OnnxProto.IModelProto {
    const model: OnnxProto.IModelProto = {
      irVersion: ONNX_IR_VERSION,
      producerName: 'sluice',
      opsetImport: [{ domain: '', version: this.options.opsetVersion ?? DEFAULT_OPSET_VERSION }],
      graph: {
        name: this.graphName,
        node: this.nodes,
        initializer: this.initializers,
        input: this.inputs,
        output: this.outputs,
      },
    };
    if (this.options.docString !== undefined) model.docString = this.options.docString;
    return model;
  }

  /** The serialised model, ready to be written to a `.onnx` file. */
  encode(): Uint8Array {
    const bytes = onnx.ModelProto.encode(this.toModelProto()).finish();
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}

function valueInfo(name: string, datatype: Datatype, shape: readonly DimSpec[]): OnnxProto.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: onnxElementType(datatype),
        shape: { dim: shape.map((dim, axis) => dimension(dim, axis)) },
      },
    },
  };
}

function dimension(dim: DimSpec, axis: number): OnnxProto.TensorShapeProto.IDimension {
  if (dim === null) return {};
  if (typeof dim === 'string') return { dimParam: dim };
  if (dim === -1) return { dimParam: axis === 0 ? 'N' : `D${axis}` };
  if (!Number.isInteger(dim) || dim < 0) throw new Error(`invalid dimension ${dim} on axis ${axis}`);
  return { dimValue: dim };
}

function attribute(name: string, value: AttributeValue): OnnxProto.IAttributeProto {
  const { AttributeType } = onnx.AttributeProto;
  if (typeof value === 'string') return { name, type: AttributeType.STRING, s: utf8.encode(value) };
  if (typeof value === 'number') return { name, type: AttributeType.INT, i: integer(name, value) };
  if (isNumberList(value)) return { name, type: AttributeType.INTS, ints: value.map((v) => integer(name, v)) };
  if ('float' in value) return { name, type: AttributeType.FLOAT, f: value.float };
  return { name, type: AttributeType.FLOATS, floats: [...value.floats] };
}

function integer(attributeName: string, value: number): number {
  if (!Number.isSafeInteger(value)) {
    throw new Error(`attribute ${attributeName}: ${value} is not an integer; tag floats as { float: value }`);
  }
  return value;
}

function isNumberList(value: AttributeValue): value is readonly number[] {
  return Array.isArray(value);
}

function isByteStrings(data: TensorData): data is readonly Uint8Array[] {
  return Array.isArray(data);
}
