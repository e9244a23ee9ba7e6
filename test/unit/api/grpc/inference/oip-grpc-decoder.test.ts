import { describe, expect, it } from '@jest/globals';
import { decodeModelInferRequest } from '../../../../../src/api/grpc/inference/oip-grpc-decoder.js';
import type { InferInputTensor, InferTensorContents, ModelInferRequest } from '../../../../../src/api/grpc/inference/oip-messages.js';

const SHAPE_EXPECTED = 'a shape is a list of non-negative integers, e.g. [1, 4]';

/** Empty contents, as the proto loader hands them over (every list present). */
function contents(set: Partial<InferTensorContents>): InferTensorContents {
  return { bool_contents: [], int_contents: [], int64_contents: [], uint_contents: [], uint64_contents: [], fp32_contents: [], fp64_contents: [], bytes_contents: [], ...set };
}

const fp32Input: InferInputTensor = { name: 'x', datatype: 'FP32', shape: ['1', '2'], parameters: {}, contents: contents({ fp32_contents: [1, 2] }) };

function request(set: Partial<ModelInferRequest>): ModelInferRequest {
  return { model_name: 'm', model_version: '', id: '', parameters: {}, inputs: [fp32Input], outputs: [], raw_input_contents: [], ...set };
}

describe('decodeModelInferRequest: shapes', () => {
  it.each([
    [['1', '-1'], '1', '-1'],
    [['-9223372036854775808'], '0', '-9223372036854775808'],
  ])('refuses the shape %p as the HTTP route does, naming the dimension', (shape, index, shown) => {
    expect(() => decodeModelInferRequest(request({ inputs: [{ ...fp32Input, shape }] }))).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: `inputs[0].shape[${index}] is ${shown}; ${SHAPE_EXPECTED}` }),
    );
  });

  it.each(['9007199254740992', '9223372036854775807'])('refuses the dimension %s, beyond 2^53 - 1, showing it exactly', (dim) => {
    expect(() => decodeModelInferRequest(request({ inputs: [{ ...fp32Input, shape: ['0', dim], contents: null }] }))).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: `inputs[0].shape[1] is ${dim}, beyond 2^53 - 1 (a count that large is not exact); ${SHAPE_EXPECTED}` }),
    );
  });

  it('quotes a long shape shortened when its contents do not fill it', () => {
    const shape = Array.from({ length: 20 }, () => '1');
    expect(() => decodeModelInferRequest(request({ inputs: [{ ...fp32Input, shape, contents: contents({ fp32_contents: [1, 2] }) }] }))).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
        message: 'input `x`: shape [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,… (20 dims)] needs 1 values, got 2',
      }),
    );
  });

  it('takes a dimension of 2^53 - 1, leaving its limit to input validation', () => {
    const decoded = decodeModelInferRequest(request({ inputs: [{ ...fp32Input, shape: ['9007199254740991', '0'], contents: null }] }));
    expect(decoded.inputs[0]?.shape).toEqual([9007199254740991, 0]);
  });
});

describe('decodeModelInferRequest: requested outputs', () => {
  it('asks for every output when the outputs list is empty', () => {
    expect(decodeModelInferRequest(request({ outputs: [] }))).not.toHaveProperty('outputs');
  });

  it('keeps the requested outputs in order', () => {
    expect(decodeModelInferRequest(request({ outputs: [{ name: 'b', parameters: {} }, { name: 'a', parameters: {} }] })).outputs).toEqual(['b', 'a']);
  });

  it('refuses an output asked for twice, as the HTTP route does', () => {
    const outputs = [{ name: 'y', parameters: {} }, { name: 'z', parameters: {} }, { name: 'y', parameters: {} }];
    expect(() => decodeModelInferRequest(request({ outputs }))).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'outputs[2]: output `y` is asked for more than once; ask for each output once' }),
    );
  });

  it('refuses the classification extension, which Sluice does not implement', () => {
    const outputs = [{ name: 'y', parameters: { classification: { parameter_choice: 'int64_param' as const, int64_param: '2' } } }];
    expect(() => decodeModelInferRequest(request({ outputs }))).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_INVALID',
        message: 'outputs[0].parameters.classification: Sluice does not implement the classification extension (ServerMetadata lists its extensions); ask for output `y` without it and rank its values',
      }),
    );
  });
});
