import { describe, expect, it } from '@jest/globals';
import { onnxElementType } from '../../../scripts/onnx/onnx-element-type.js';
import { DEFAULT_OPSET_VERSION, ONNX_IR_VERSION, OnnxGraphBuilder } from '../../../scripts/onnx/onnx-graph-builder.js';
import { onnx } from '../../../scripts/onnx/onnx-proto.js';

interface DecodedModel {
  irVersion: number;
  producerName: string;
  opsetImport: { domain?: string; version: number }[];
  graph: {
    node: { opType: string; name: string; input: string[]; output: string[]; attribute?: { name: string; type: number; i?: number; f?: number; ints?: number[]; s?: number[] }[] }[];
    initializer?: { name: string; dims: number[]; dataType: number; rawData?: number[]; stringData?: number[][] }[];
    input: { name: string; type: { tensorType: { elemType: number; shape: { dim: { dimValue?: number; dimParam?: string }[] } } } }[];
  };
}

function decode(bytes: Uint8Array): DecodedModel {
  return onnx.ModelProto.toObject(onnx.ModelProto.decode(bytes), { longs: Number, bytes: Array }) as DecodedModel;
}

function identity(): OnnxGraphBuilder {
  return new OnnxGraphBuilder('g').input('x', 'FP32', [-1, 3]).node('Identity', ['x'], ['y']).output('y', 'FP32', [-1, 3]);
}

describe('OnnxGraphBuilder', () => {
  it('encodes the same calls to the same bytes', () => {
    expect(Buffer.from(identity().encode()).equals(Buffer.from(identity().encode()))).toBe(true);
  });

  it('declares the IR version and the default-domain opset', () => {
    const model = decode(identity().encode());
    expect(model.irVersion).toBe(ONNX_IR_VERSION);
    expect(model.producerName).toBe('sluice');
    expect(model.opsetImport).toEqual([{ domain: '', version: DEFAULT_OPSET_VERSION }]);
  });

  it('honours a different opset version', () => {
    const bytes = new OnnxGraphBuilder('g', { opsetVersion: 13 }).input('x', 'FP32', [1]).output('x', 'FP32', [1]).encode();
    expect(decode(bytes).opsetImport[0]?.version).toBe(13);
  });

  it('writes -1 as a symbolic dimension (N on the first axis), strings as named ones and null as unknown', () => {
    const bytes = new OnnxGraphBuilder('g').input('x', 'INT64', [-1, -1, 'width', null, 5]).output('x', 'INT64', [-1]).encode();
    const input = decode(bytes).graph.input[0]!;
    expect(input.type.tensorType.elemType).toBe(onnx.TensorProto.DataType.INT64);
    expect(input.type.tensorType.shape.dim).toEqual([{ dimParam: 'N' }, { dimParam: 'D1' }, { dimParam: 'width' }, {}, { dimValue: 5 }]);
  });

  it('rejects a negative dimension other than -1', () => {
    expect(() => new OnnxGraphBuilder('g').input('x', 'FP32', [-2])).toThrow('invalid dimension');
  });

  it('writes plain numbers as INT attributes and tagged ones as FLOAT attributes', () => {
    const bytes = identity()
      .node('LeakyRelu', ['y'], ['z'], { alpha: { float: 0.25 } })
      .node('ArgMax', ['z'], ['w'], { axis: 1, keepdims: 0 })
      .node('Transpose', ['z'], ['t'], { perm: [1, 0] })
      .encode();
    const [, leaky, argMax, transpose] = decode(bytes).graph.node;
    const { AttributeType } = onnx.AttributeProto;
    expect(leaky?.attribute).toEqual([{ name: 'alpha', type: AttributeType.FLOAT, f: 0.25 }]);
    expect(argMax?.attribute).toEqual([
      { name: 'axis', type: AttributeType.INT, i: 1 },
      { name: 'keepdims', type: AttributeType.INT, i: 0 },
    ]);
    expect(transpose?.attribute).toEqual([{ name: 'perm', type: AttributeType.INTS, ints: [1, 0] }]);
  });

  it('refuses a fractional number given as an INT attribute', () => {
    expect(() => identity().node('LeakyRelu', ['y'], ['z'], { alpha: 0.1 })).toThrow('alpha');
  });

  it('names nodes after their op type and position unless told otherwise', () => {
    const nodes = decode(identity().node('Relu', ['y'], ['z'], {}, 'activation').encode()).graph.node;
    expect(nodes.map((node) => node.name)).toEqual(['Identity_0', 'activation']);
  });

  it('stores numeric initializers as little-endian raw data', () => {
    const bytes = identity().initializer('w', 'INT32', [2], new Int32Array([1, -2])).encode();
    expect(decode(bytes).graph.initializer).toEqual([
      { name: 'w', dims: [2], dataType: onnxElementType('INT32'), rawData: [1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff] },
    ]);
  });

  it('stores BYTES initializers as string data', () => {
    const bytes = identity().initializer('words', 'BYTES', [2], [new Uint8Array([0x68, 0x69]), new Uint8Array([])]).encode();
    expect(decode(bytes).graph.initializer?.[0]?.stringData).toEqual([[0x68, 0x69], []]);
  });

  it('refuses initializer data that does not fill its shape', () => {
    expect(() => identity().initializer('w', 'FP32', [2, 2], new Float32Array(3))).toThrow(/needs 4 elements, got 3/);
  });
});
