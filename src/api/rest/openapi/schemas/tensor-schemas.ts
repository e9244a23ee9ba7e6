import { DATATYPES } from '../../../../sdk/tensor/index.js';
import { sluiceSchemaPart } from './sluice-schema-part.js';
import { listOf, schemaRef, type JsonSchema } from './json-schema.js';

/** The largest dimension ONNX Runtime takes (2^32 − 1). */
const MAX_DIMENSION = 4_294_967_295;

/** A scalar tensor element in JSON. */
const ELEMENT: readonly JsonSchema[] = [{ type: 'number' }, { type: 'boolean' }, { type: 'string' }];

/** Tensor shapes, datatypes and JSON tensor data, shared by every protocol. */
export function tensorSchemas(): Record<string, JsonSchema> {
  return {
    Datatype: {
      description: 'An Open Inference Protocol datatype Sluice carries end to end; BF16 is refused (ONNX Runtime cannot carry it).',
      type: 'string',
      enum: DATATYPES.filter((datatype) => datatype !== 'BF16'),
    },
    Shape: listOf(
      { type: 'integer', minimum: 0, maximum: MAX_DIMENSION },
      'The dimensions of a tensor; each at most 4294967295 (2^32 − 1, the largest ONNX Runtime takes).',
    ),
    TensorData: {
      description:
        'Tensor elements in row-major order, flat or nested exactly as the shape says: numbers (within the datatype’s range), true/false for BOOL, UTF-8 strings for BYTES. 64-bit integers are exact up to 2^53.',
      type: 'array',
      items: { anyOf: [...ELEMENT, schemaRef('TensorData')] },
    },
    OutputTensorData: {
      description: 'Tensor elements as answered: as TensorData, with null for a NaN or an infinity (JSON has neither; ask for the output as binary data to get them).',
      type: 'array',
      items: { anyOf: [...ELEMENT, { type: 'null' }, schemaRef('OutputTensorData')] },
    },
    TensorSpec: sluiceSchemaPart('model.schema.json', '/definitions/tensorSpec'),
  };
}
