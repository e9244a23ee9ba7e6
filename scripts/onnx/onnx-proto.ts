import onnxProto from 'onnx-proto';

/**
 * The ONNX protobuf message classes. `onnx-proto` is a CommonJS package whose only runtime export is
 * `module.exports = { onnx }`, so under ESM it is reachable through the default import alone.
 */
export const { onnx } = onnxProto;

export type { onnx as OnnxProto } from 'onnx-proto';
