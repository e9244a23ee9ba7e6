import { describe, expect, it } from '@jest/globals';
import { decodeOipRequest } from '../../../../src/api/rest/inference/oip/oip-request-decoder.js';
import { decodeJsonInstance, decodeJsonRequestBody, type ModelDescription, type SluiceError } from '../../../../src/sdk/index.js';
import { validateInputs } from '../../../../src/runtime/input-validation.js';

const iris: ModelDescription = {
  name: 'iris',
  version: '1',
  inputs: [{ name: 'features', datatype: 'FP32', shape: [-1, 4] }],
  outputs: [{ name: 'probabilities', datatype: 'FP32', shape: [-1, 3] }],
};

const pair: ModelDescription = {
  name: 'pair',
  version: '1',
  inputs: [
    { name: 'a', datatype: 'FP32', shape: [-1, 2] },
    { name: 'b', datatype: 'INT64', shape: [-1] },
  ],
  outputs: [{ name: 'y', datatype: 'FP32', shape: [-1] }],
};

const fixed: ModelDescription = { name: 'fixed', version: '1', inputs: [{ name: 'x', datatype: 'FP32', shape: [2, 2] }], outputs: [] };

const ACCEPTED_FORMS = 'send a JSON array, {"data": …}, {"inputs": {"<name>": …}}, {"inputs": [OIP tensors]} or {"instances": […]}';

describe('decodeJsonRequestBody: a bare array', () => {
  it('reads a list of rows as a batch', () => {
    expect(decodeJsonRequestBody([[1, 2, 3, 4], [5, 6, 7, 8]], iris)).toEqual({
      inputs: [{ name: 'features', datatype: 'FP32', shape: [2, 4], data: new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]) }],
      form: 'batch',
    });
  });

  it('reads one row as a single instance and adds the batch dimension', () => {
    expect(decodeJsonRequestBody([1, 2, 3, 4], iris)).toEqual({
      inputs: [{ name: 'features', datatype: 'FP32', shape: [1, 4], data: new Float32Array([1, 2, 3, 4]) }],
      form: 'single',
    });
  });

  it('adds no batch dimension when the model’s first dimension is fixed', () => {
    expect(decodeJsonRequestBody([1, 2], fixed)).toMatchObject({ inputs: [{ shape: [2] }], form: 'batch' });
  });

  it('refuses ragged rows', () => {
    expect(() => decodeJsonRequestBody([[1, 2, 3, 4], [5, 6, 7]], iris)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
        message: 'input `features`: ragged data, row [1] has 3 values but 4 were expected; every row must have the same length',
      }),
    );
  });

  it('refuses values that do not fit the input’s datatype', () => {
    expect(() => decodeJsonRequestBody({ inputs: { a: [1, 2], b: 1.5 } }, pair)).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_INVALID_VALUE', message: expect.stringMatching(/^input `b`: element 0 is 1\.5, expected an integer/) as unknown }),
    );
  });

  it('refuses a bare array for a model with several inputs, saying what to send', () => {
    expect(() => decodeJsonRequestBody([1, 2], pair)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_INVALID',
        message: 'model `pair` has 2 inputs (a, b); send {"inputs": {"<name>": …}} with one entry per input',
      }),
    );
  });

  it('refuses a bare array for a model without inputs', () => {
    const none: ModelDescription = { ...iris, inputs: [] };
    expect(() => decodeJsonRequestBody([1], none)).toThrow('model `iris` has 0 inputs (); send {"inputs": {"<name>": …}} with one entry per input');
  });

  it('refuses an input the model declares as BF16', () => {
    const bf16: ModelDescription = { ...iris, inputs: [{ name: 'features', datatype: 'BF16', shape: [-1, 4] }] };
    expect(() => decodeJsonRequestBody([1, 2, 3, 4], bf16)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_UNSUPPORTED_DATATYPE',
        message: 'input `features` of model `iris` is BF16, which Sluice cannot carry; export the model with FP16 or FP32 inputs',
      }),
    );
  });
});

describe('decodeJsonRequestBody: {"data": …}', () => {
  it('reads rows as a batch', () => {
    expect(decodeJsonRequestBody({ data: [[1, 2, 3, 4]] }, iris)).toMatchObject({ inputs: [{ shape: [1, 4] }], form: 'batch' });
  });

  it('reads one row as a single instance', () => {
    expect(decodeJsonRequestBody({ data: [1, 2, 3, 4] }, iris)).toMatchObject({ inputs: [{ shape: [1, 4] }], form: 'single' });
  });

  it('reads a scalar as a single instance of a per-instance scalar input', () => {
    const scalar: ModelDescription = { ...iris, inputs: [{ name: 'n', datatype: 'INT32', shape: [-1] }] };
    expect(decodeJsonRequestBody({ data: 7 }, scalar)).toEqual({
      inputs: [{ name: 'n', datatype: 'INT32', shape: [1], data: new Int32Array([7]) }],
      form: 'single',
    });
  });

  it('refuses {"data": …} for a model with several inputs', () => {
    expect(() => decodeJsonRequestBody({ data: [1, 2] }, pair)).toThrow(expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID' }));
  });
});

describe('decodeJsonRequestBody: {"inputs": {"<name>": …}}', () => {
  it('reads one entry per input in the order given', () => {
    expect(decodeJsonRequestBody({ inputs: { b: [3, 4], a: [[1, 2], [5, 6]] } }, pair)).toEqual({
      inputs: [
        { name: 'b', datatype: 'INT64', shape: [2], data: new BigInt64Array([3n, 4n]) },
        { name: 'a', datatype: 'FP32', shape: [2, 2], data: new Float32Array([1, 2, 5, 6]) },
      ],
      form: 'batch',
    });
  });

  it('reads a single instance when every input is one dimension short', () => {
    expect(decodeJsonRequestBody({ inputs: { a: [1, 2], b: 3 } }, pair)).toMatchObject({
      inputs: [{ name: 'a', shape: [1, 2] }, { name: 'b', shape: [1] }],
      form: 'single',
    });
  });

  it('refuses an input the model does not have, listing its inputs', () => {
    expect(() => decodeJsonRequestBody({ inputs: { c: [1] } }, pair)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_UNKNOWN_INPUT',
        message: 'model `pair` has no input `c`; its inputs are: a, b',
        details: { input: 'c' },
      }),
    );
  });

  it('refuses inputs that mix a single instance and a batch, naming them', () => {
    expect(() => decodeJsonRequestBody({ inputs: { a: [1, 2], b: [3, 4] } }, pair)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_INVALID',
        message:
          'the inputs mix a single instance (`a`) and a batch (`b`); send all of them the same way, each one instance or each with the batch dimension',
      }),
    );
  });

  it('reads an empty inputs object as no inputs in batch form', () => {
    expect(decodeJsonRequestBody({ inputs: {} }, pair)).toEqual({ inputs: [], form: 'batch' });
  });
});

describe('decodeJsonRequestBody: {"inputs": [OIP tensors]}', () => {
  it('reads tensors with their own datatype and shape', () => {
    const body = { inputs: [{ name: 'features', datatype: 'FP64', shape: [1, 4], data: [1, 2, 3, 4] }] };
    expect(decodeJsonRequestBody(body, iris)).toEqual({
      inputs: [{ name: 'features', datatype: 'FP64', shape: [1, 4], data: new Float64Array([1, 2, 3, 4]) }],
      form: 'batch',
    });
  });

  it('accepts nested data', () => {
    const body = { inputs: [{ name: 'features', datatype: 'FP32', shape: [2, 2], data: [[1, 2], [3, 4]] }] };
    expect(decodeJsonRequestBody(body, iris)).toMatchObject({ inputs: [{ data: new Float32Array([1, 2, 3, 4]) }] });
  });

  it('refuses nested data not nested as its shape says, though the count fits', () => {
    const body = { inputs: [{ name: 'features', datatype: 'FP32', shape: [2, 4], data: [[1, 2, 3, 4, 5], [1, 2, 3]] }] };
    expect(() => decodeJsonRequestBody(body, iris)).toThrow(expect.objectContaining({ code: 'SLUICE_TENSOR_SHAPE_MISMATCH' }));
  });

  it('refuses an entry that is not a tensor object', () => {
    expect(() => decodeJsonRequestBody({ inputs: [{ name: 'x' }] }, iris)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'inputs[0] must be an object with name, datatype, shape and data' }),
    );
  });

  it('refuses an unknown or BF16 datatype', () => {
    expect(() => decodeJsonRequestBody({ inputs: [{ name: 'x', datatype: 'FLOAT', shape: [1], data: [1] }] }, iris)).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_UNSUPPORTED_DATATYPE', message: 'input `x`: datatype "FLOAT" is not supported' }),
    );
    expect(() => decodeJsonRequestBody({ inputs: [{ name: 'x', datatype: 'BF16', shape: [1], data: [1] }] }, iris)).toThrow(
      'input `x`: datatype "BF16" is not supported',
    );
  });

  it('refuses a shape that is not a list of non-negative integers, naming the dimension', () => {
    expect(() => decodeJsonRequestBody({ inputs: [{ name: 'x', datatype: 'FP32', shape: [-1], data: [1] }] }, iris)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'inputs[0].shape[0] is -1; a shape is a list of non-negative integers, e.g. [1, 4]' }),
    );
  });

  it('refuses a dimension beyond 2^53 - 1, which JSON cannot carry exactly', () => {
    expect(() => decodeJsonRequestBody({ inputs: [{ name: 'x', datatype: 'FP32', shape: [0, 2 ** 53], data: [] }] }, iris)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_INVALID',
        message: 'inputs[0].shape[1] is 9007199254740992, beyond 2^53 - 1 (a JSON number that large is not exact); a shape is a list of non-negative integers, e.g. [1, 4]',
      }),
    );
  });

  it.each([[[1, -1]], [[1.5]], [['2', 2]], [[2, null]], [[0, 2 ** 53]], [[0, 1e308]]])('checks the shape %p as the OIP infer decoder does', (shape) => {
    const input = { name: 'x', datatype: 'FP32', shape, data: [] };
    const refusal = (decode: () => unknown): unknown => {
      try {
        decode();
      } catch (error) {
        return { code: (error as SluiceError).code, message: (error as SluiceError).message };
      }
      return 'accepted';
    };
    const oip = refusal(() => decodeOipRequest({ inputs: [input] }));
    expect(oip).toMatchObject({ code: 'SLUICE_REQUEST_INVALID' });
    expect(refusal(() => decodeJsonRequestBody({ inputs: [input] }, iris))).toEqual(oip);
  });

  it('refuses data that does not fill the shape', () => {
    expect(() => decodeJsonRequestBody({ inputs: [{ name: 'x', datatype: 'FP32', shape: [3], data: [1, 2] }] }, iris)).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH', message: 'input `x`: shape [3] needs 3 values, got 2' }),
    );
  });
});

describe('decodeJsonRequestBody: {"instances": […]}', () => {
  it('reads a list of rows as one instance per row', () => {
    expect(decodeJsonRequestBody({ instances: [[1, 2, 3, 4], [5, 6, 7, 8]] }, iris)).toEqual({
      inputs: [{ name: 'features', datatype: 'FP32', shape: [2, 4], data: new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]) }],
      form: 'instances',
    });
  });

  it('reads a list of objects as one instance per object, input by input', () => {
    expect(decodeJsonRequestBody({ instances: [{ a: [1, 2], b: 3 }, { b: 4, a: [5, 6] }] }, pair)).toEqual({
      inputs: [
        { name: 'a', datatype: 'FP32', shape: [2, 2], data: new Float32Array([1, 2, 5, 6]) },
        { name: 'b', datatype: 'INT64', shape: [2], data: new BigInt64Array([3n, 4n]) },
      ],
      form: 'instances',
    });
  });

  it('reads objects for a single-input model too', () => {
    expect(decodeJsonRequestBody({ instances: [{ features: [1, 2, 3, 4] }] }, iris)).toMatchObject({
      inputs: [{ name: 'features', shape: [1, 4] }],
      form: 'instances',
    });
  });

  it('reads a list of scalars as one scalar per instance, never adding a batch dimension', () => {
    expect(decodeJsonRequestBody({ instances: [1, 2, 3, 4] }, iris)).toEqual({
      inputs: [{ name: 'features', datatype: 'FP32', shape: [4], data: new Float32Array([1, 2, 3, 4]) }],
      form: 'instances',
    });
  });

  it('leaves instances of the wrong rank to shape validation, which shows expected vs. got', () => {
    const { inputs } = decodeJsonRequestBody({ instances: [1, 2, 3, 4] }, iris);
    expect(() => {
      validateInputs('iris', iris.inputs, inputs);
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
        message: 'input `features` of model `iris` must have shape [-1,4] (-1 = any size), got [4]',
      }),
    );
  });

  it('takes each input of object instances as sent, never adding a batch dimension', () => {
    expect(decodeJsonRequestBody({ instances: [{ a: 1, b: 3 }] }, pair)).toMatchObject({
      inputs: [{ name: 'a', shape: [1] }, { name: 'b', shape: [1] }],
      form: 'instances',
    });
  });

  it('refuses instances that are not objects for a model with several inputs, naming the inputs', () => {
    expect(() => decodeJsonRequestBody({ instances: [[1, 2], [3, 4]] }, pair)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_INVALID',
        message: 'instances[0] is not an object; model `pair` has 2 inputs (a, b), so each instance must be an object with one entry per input',
      }),
    );
  });

  it('refuses an instance that lacks an input', () => {
    expect(() => decodeJsonRequestBody({ instances: [{ a: [1, 2], b: 3 }, { a: [5, 6] }] }, pair)).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_MISSING_INPUT', message: 'instances[1] lacks input `b`', details: { input: 'b' } }),
    );
  });

  it('refuses an empty list', () => {
    expect(() => decodeJsonRequestBody({ instances: [] }, iris)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: '"instances" is empty; send at least one instance' }),
    );
  });

  it('refuses instances that are not a list', () => {
    expect(() => decodeJsonRequestBody({ instances: { features: [1] } }, iris)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: '"instances" must be a list' }),
    );
  });

  it('refuses ragged instances', () => {
    expect(() => decodeJsonRequestBody({ instances: [[1, 2, 3, 4], [1]] }, iris)).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_SHAPE_MISMATCH' }),
    );
  });
});

describe('decodeJsonRequestBody: bodies that hold no instance or several forms', () => {
  it('refuses an empty bare array, saying the body holds no instance', () => {
    expect(() => decodeJsonRequestBody([], iris)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_INVALID',
        message: 'the body holds no instance: the body is an empty list; input `features` of model `iris` has shape [-1,4] (-1 = any size), so send one instance of shape [4] or a list of them',
      }),
    );
  });

  it('refuses an empty {"data": []} and an empty named input the same way', () => {
    expect(() => decodeJsonRequestBody({ data: [] }, iris)).toThrow(
      'the body holds no instance: "data" is an empty list; input `features` of model `iris` has shape [-1,4] (-1 = any size), so send one instance of shape [4] or a list of them',
    );
    expect(() => decodeJsonRequestBody({ inputs: { a: [[1, 2]], b: [] } }, pair)).toThrow(
      'the body holds no instance: the "inputs" entry `b` is an empty list; input `b` of model `pair` has shape [-1] (-1 = any size), so send one instance, a single value, or a list of them',
    );
  });

  it('reads [] as one instance with an empty row when the row may be empty', () => {
    const sequence: ModelDescription = { ...iris, inputs: [{ name: 'ids', datatype: 'INT64', shape: [-1, -1] }] };
    expect(decodeJsonRequestBody([], sequence)).toEqual({ inputs: [{ name: 'ids', datatype: 'INT64', shape: [1, 0], data: new BigInt64Array(0) }], form: 'single' });
  });

  it('refuses a body with both "data" and "inputs", naming both', () => {
    expect(() => decodeJsonRequestBody({ data: [1, 2, 3, 4], inputs: { features: [5, 6, 7, 8] } }, iris)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: `the body has both "data" and "inputs"; send only one of them: ${ACCEPTED_FORMS}` }),
    );
  });

  it('refuses a body with "instances" beside another form, naming every one', () => {
    expect(() => decodeJsonRequestBody({ instances: [[1, 2, 3, 4]], data: [1, 2, 3, 4], inputs: [] }, iris)).toThrow(
      `the body has "data", "inputs" and "instances"; send only one of them: ${ACCEPTED_FORMS}`,
    );
  });
});

describe('decodeJsonInstance: one KServe instance as a request of its own', () => {
  it('reads a row as one instance, answered without the batch dimension', () => {
    expect(decodeJsonInstance([1, 2, 3, 4], iris)).toEqual({
      inputs: [{ name: 'features', datatype: 'FP32', shape: [1, 4], data: new Float32Array([1, 2, 3, 4]) }],
      form: 'single',
    });
  });

  it('reads an object as one entry per input', () => {
    expect(decodeJsonInstance({ b: 3, a: [1, 2] }, pair)).toEqual({
      inputs: [
        { name: 'a', datatype: 'FP32', shape: [1, 2], data: new Float32Array([1, 2]) },
        { name: 'b', datatype: 'INT64', shape: [1], data: new BigInt64Array([3n]) },
      ],
      form: 'single',
    });
  });

  it('takes a row as sent for a model whose first dimension is fixed, as a list of instances does', () => {
    expect(decodeJsonInstance([1, 2], fixed)).toMatchObject({ inputs: [{ name: 'x', shape: [1, 2] }], form: 'single' });
  });

  it('refuses an object lacking an input, without naming a place in a list', () => {
    expect(() => decodeJsonInstance({ a: [1, 2] }, pair)).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_MISSING_INPUT', message: 'the instance lacks input `b`', details: { input: 'b' } }),
    );
  });

  it('refuses a row for a model with several inputs, naming the inputs', () => {
    expect(() => decodeJsonInstance([1, 2], pair)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_INVALID',
        message: 'the instance is not an object; model `pair` has 2 inputs (a, b), so each instance must be an object with one entry per input',
      }),
    );
  });
});

describe('decodeJsonRequestBody: other bodies', () => {
  it.each([['text'], [null], [42], [true]])('refuses %p, listing the accepted forms', (body) => {
    expect(() => decodeJsonRequestBody(body, iris)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: `the body is not a tensor request; ${ACCEPTED_FORMS}` }),
    );
  });

  it('refuses an object without data, inputs or instances, listing the accepted forms', () => {
    expect(() => decodeJsonRequestBody({ input: [1, 2, 3, 4] }, iris)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: `the body has none of the keys data, inputs or instances; ${ACCEPTED_FORMS}` }),
    );
  });

  it('refuses "inputs" that is neither a list nor an object, saying what it must be', () => {
    expect(() => decodeJsonRequestBody({ inputs: 'x' }, iris)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_INVALID',
        message: '"inputs" must be an object mapping input names to data, or a list of OIP tensors',
      }),
    );
  });
});
