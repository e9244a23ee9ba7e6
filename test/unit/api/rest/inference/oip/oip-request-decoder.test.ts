import { describe, expect, it } from '@jest/globals';
import { decodeOipRequest, parseBinaryHeader, splitBinaryBody } from '../../../../../../src/api/rest/inference/oip/oip-request-decoder.js';

const f32Bytes = (...values: number[]): Uint8Array => new Uint8Array(new Float32Array(values).buffer);
const i64Bytes = (...values: bigint[]): Uint8Array => new Uint8Array(new BigInt64Array(values).buffer);

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

function lengthPrefixed(...elements: string[]): Uint8Array {
  const utf8 = new TextEncoder();
  return concat(
    ...elements.flatMap((e) => {
      const bytes = utf8.encode(e);
      const prefix = new Uint8Array(4);
      new DataView(prefix.buffer).setUint32(0, bytes.byteLength, true);
      return [prefix, bytes];
    }),
  );
}

const fp32Input = { name: 'x', datatype: 'FP32', shape: [1, 2], data: [1, 2] };

describe('decodeOipRequest: JSON tensors', () => {
  it('decodes inputs, id and requested outputs', () => {
    const decoded = decodeOipRequest({ id: 'r1', inputs: [fp32Input], outputs: [{ name: 'y' }, { name: 'z' }] });
    expect(decoded.id).toBe('r1');
    expect(decoded.inputs).toEqual([{ name: 'x', datatype: 'FP32', shape: [1, 2], data: new Float32Array([1, 2]) }]);
    expect(decoded.outputs).toEqual(['y', 'z']);
  });

  it('leaves id and outputs out when the request has none', () => {
    const decoded = decodeOipRequest({ inputs: [fp32Input] });
    expect(decoded).not.toHaveProperty('id');
    expect(decoded).not.toHaveProperty('outputs');
  });

  it('accepts nested data', () => {
    const decoded = decodeOipRequest({ inputs: [{ name: 'x', datatype: 'INT32', shape: [2, 2], data: [[1, 2], [3, 4]] }] });
    expect(decoded.inputs[0]!.data).toEqual(new Int32Array([1, 2, 3, 4]));
  });

  it('refuses a request that is not an object', () => {
    expect(() => decodeOipRequest([fp32Input])).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'the request must be a JSON object with an "inputs" list' }),
    );
  });

  it('refuses a request without inputs or with an empty list', () => {
    expect(() => decodeOipRequest({})).toThrow(expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: '"inputs" must be a non-empty list of tensors' }));
    expect(() => decodeOipRequest({ inputs: [] })).toThrow('"inputs" must be a non-empty list of tensors');
  });

  it('refuses an id that is not a string', () => {
    expect(() => decodeOipRequest({ id: 7, inputs: [fp32Input] })).toThrow(expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: '"id" must be a string' }));
  });

  it('refuses an input that is not an object', () => {
    expect(() => decodeOipRequest({ inputs: [fp32Input, 3] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'inputs[1] must be an object with name, shape, datatype and data' }),
    );
  });

  it('refuses an input without a name', () => {
    expect(() => decodeOipRequest({ inputs: [{ ...fp32Input, name: '' }] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'inputs[0].name must be a non-empty string' }),
    );
  });

  it('refuses a datatype that is not an OIP datatype', () => {
    expect(() => decodeOipRequest({ inputs: [{ ...fp32Input, datatype: 'float32' }] })).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_UNSUPPORTED_DATATYPE',
        message: 'input `x`: datatype "float32" is not an OIP datatype (FP32, INT64, BYTES, …)',
      }),
    );
  });

  it('refuses BF16', () => {
    expect(() => decodeOipRequest({ inputs: [{ ...fp32Input, datatype: 'BF16' }] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_UNSUPPORTED_DATATYPE', message: 'input `x`: BF16 is not supported by the ONNX runtime; send FP16 or FP32' }),
    );
  });

  it.each([['2'], [undefined]])('refuses the shape %p', (shape) => {
    expect(() => decodeOipRequest({ inputs: [{ ...fp32Input, shape }] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'inputs[0].shape must be a list of non-negative integers, e.g. [1, 4]' }),
    );
  });

  it.each([
    [[1, -1], '1', '-1'],
    [[1.5], '0', '1.5'],
    [['2', 2], '0', '"2"'],
    [[2, null], '1', 'null'],
    [[Infinity, 0], '0', 'Infinity'],
  ])('refuses the shape %p, naming the dimension', (shape, index, shown) => {
    expect(() => decodeOipRequest({ inputs: [{ ...fp32Input, shape }] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: `inputs[0].shape[${index}] is ${shown}; a shape is a list of non-negative integers, e.g. [1, 4]` }),
    );
  });

  it('refuses a dimension beyond 2^53 - 1, which JSON cannot carry exactly', () => {
    expect(() => decodeOipRequest({ inputs: [{ ...fp32Input, shape: [1e308, 1e308, 0], data: [] }] })).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_INVALID',
        message: 'inputs[0].shape[0] is 1e+308, beyond 2^53 - 1 (a JSON number that large is not exact); a shape is a list of non-negative integers, e.g. [1, 4]',
      }),
    );
  });

  it('refuses an input with neither data nor binary_data_size', () => {
    expect(() => decodeOipRequest({ inputs: [{ name: 'x', datatype: 'FP32', shape: [1] }] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'inputs[0] has no data (and no binary_data_size)' }),
    );
  });

  it('refuses nested data that does not match the shape, even when the count does', () => {
    expect(() => decodeOipRequest({ inputs: [{ name: 'x', datatype: 'FP32', shape: [2, 4], data: [[1, 2, 3, 4, 5], [1, 2, 3]] }] })).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
        message: 'input `x`: nested data does not match shape [2,4]: row [0] has 5 values, expected 4; nest the data exactly as the shape says, or send it flat',
      }),
    );
  });

  it('refuses data that does not fill the shape', () => {
    expect(() => decodeOipRequest({ inputs: [{ ...fp32Input, data: [1] }] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH', message: 'input `x`: shape [1,2] needs 2 values, got 1' }),
    );
  });

  it('refuses parameters that are not an object', () => {
    expect(() => decodeOipRequest({ inputs: [{ ...fp32Input, parameters: [] }] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'inputs[0].parameters must be an object' }),
    );
  });

  it('asks for every output when the outputs list is empty', () => {
    expect(decodeOipRequest({ inputs: [fp32Input], outputs: [] })).not.toHaveProperty('outputs');
  });

  it('refuses an output asked for twice', () => {
    expect(() => decodeOipRequest({ inputs: [fp32Input], outputs: [{ name: 'y', parameters: { binary_data: true } }, { name: 'y' }] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'outputs[1]: output `y` is asked for more than once; ask for each output once' }),
    );
  });

  it('refuses the classification extension, which Sluice does not implement', () => {
    expect(() => decodeOipRequest({ inputs: [fp32Input], outputs: [{ name: 'y', parameters: { classification: 2 } }] })).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_INVALID',
        message: 'outputs[0].parameters.classification: Sluice does not implement the classification extension (GET /v2 lists its extensions); ask for output `y` without it and rank its values',
      }),
    );
  });

  it('refuses outputs that are not a list of named objects', () => {
    expect(() => decodeOipRequest({ inputs: [fp32Input], outputs: 'y' })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: '"outputs" must be a list of {name}' }),
    );
    expect(() => decodeOipRequest({ inputs: [fp32Input], outputs: [{ name: 'y' }, { id: 'z' }] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'outputs[1] must be an object with a name' }),
    );
  });
});

describe('decodeOipRequest: binary tensors', () => {
  it('slices the binary part by binary_data_size in input order', () => {
    const header = {
      inputs: [
        { name: 'a', datatype: 'FP32', shape: [2], parameters: { binary_data_size: 8 } },
        { name: 'b', datatype: 'INT64', shape: [1], parameters: { binary_data_size: 8 } },
      ],
    };
    const decoded = decodeOipRequest(header, concat(f32Bytes(1.5, -2), i64Bytes(42n)));
    expect(decoded.inputs).toEqual([
      { name: 'a', datatype: 'FP32', shape: [2], data: new Float32Array([1.5, -2]) },
      { name: 'b', datatype: 'INT64', shape: [1], data: new BigInt64Array([42n]) },
    ]);
  });

  it('mixes JSON and binary inputs, slicing only the binary ones', () => {
    const header = {
      inputs: [
        { name: 'a', datatype: 'FP32', shape: [1], data: [9] },
        { name: 'b', datatype: 'FP32', shape: [1], parameters: { binary_data_size: 4 } },
      ],
    };
    expect(decodeOipRequest(header, f32Bytes(3)).inputs.map((t) => Array.from(t.data as Float32Array))).toEqual([[9], [3]]);
  });

  it('reads BYTES elements with 4-byte length prefixes', () => {
    const binary = lengthPrefixed('hello', 'wörld');
    const header = { inputs: [{ name: 't', datatype: 'BYTES', shape: [2], parameters: { binary_data_size: binary.byteLength } }] };
    const utf8 = new TextEncoder();
    expect(decodeOipRequest(header, binary).inputs[0]!.data).toEqual([utf8.encode('hello'), utf8.encode('wörld')]);
  });

  it('refuses a binary_data_size that runs past the end of the body', () => {
    const header = { inputs: [{ name: 'a', datatype: 'FP32', shape: [2], parameters: { binary_data_size: 8 } }] };
    expect(() => decodeOipRequest(header, f32Bytes(1))).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_BINARY_HEADER_INVALID',
        message:
          'input `a`: binary_data_size 8 runs past the end of the body (4 bytes left); check the sizes and Inference-Header-Content-Length',
      }),
    );
  });

  it('refuses bytes left over after the last binary input', () => {
    const header = { inputs: [{ name: 'a', datatype: 'FP32', shape: [1], parameters: { binary_data_size: 4 } }] };
    expect(() => decodeOipRequest(header, f32Bytes(1, 2))).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_BINARY_HEADER_INVALID',
        message: 'the body has 4 bytes after the last binary input; the binary_data_size values do not add up to the body',
      }),
    );
  });

  it('refuses binary bytes sent with JSON-only inputs', () => {
    expect(() => decodeOipRequest({ inputs: [fp32Input] }, f32Bytes(1))).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_BINARY_HEADER_INVALID' }),
    );
  });

  it('refuses a binary_data_size that does not fit the shape', () => {
    const header = { inputs: [{ name: 'a', datatype: 'FP32', shape: [2], parameters: { binary_data_size: 4 } }] };
    expect(() => decodeOipRequest(header, f32Bytes(1))).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH', message: 'input `a`: shape [2] of FP32 needs 8 bytes, got 4' }),
    );
  });

  it('refuses an input with both data and binary_data_size', () => {
    const header = { inputs: [{ name: 'a', datatype: 'FP32', shape: [1], data: [1], parameters: { binary_data_size: 4 } }] };
    expect(() => decodeOipRequest(header, f32Bytes(1))).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'inputs[0] has both data and binary_data_size; send one of them' }),
    );
  });

  it.each([[-1], [1.5], ['4']])('refuses binary_data_size %p', (size) => {
    const header = { inputs: [{ name: 'a', datatype: 'FP32', shape: [1], parameters: { binary_data_size: size } }] };
    expect(() => decodeOipRequest(header, f32Bytes(1))).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'inputs[0].parameters.binary_data_size must be a non-negative integer' }),
    );
  });
});

describe('decodeOipRequest: binary outputs', () => {
  it('answers every output as JSON by default', () => {
    const decoded = decodeOipRequest({ inputs: [fp32Input] });
    expect(decoded.isBinaryOutput('y')).toBe(false);
  });

  it('answers every output as binary when binary_data_output is true', () => {
    const decoded = decodeOipRequest({ inputs: [fp32Input], parameters: { binary_data_output: true } });
    expect(decoded.isBinaryOutput('y')).toBe(true);
  });

  it('lets an output’s binary_data: false override binary_data_output', () => {
    const decoded = decodeOipRequest({
      inputs: [fp32Input],
      parameters: { binary_data_output: true },
      outputs: [{ name: 'y', parameters: { binary_data: false } }, { name: 'z' }],
    });
    expect([decoded.isBinaryOutput('y'), decoded.isBinaryOutput('z')]).toEqual([false, true]);
  });

  it('lets an output ask for binary on its own', () => {
    const decoded = decodeOipRequest({ inputs: [fp32Input], outputs: [{ name: 'y', parameters: { binary_data: true } }, { name: 'z' }] });
    expect([decoded.isBinaryOutput('y'), decoded.isBinaryOutput('z')]).toEqual([true, false]);
  });

  it('refuses a binary_data_output that is not a boolean', () => {
    expect(() => decodeOipRequest({ inputs: [fp32Input], parameters: { binary_data_output: 'yes' } })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'parameters.binary_data_output must be true or false, got "yes"' }),
    );
  });

  it('refuses an output’s binary_data that is not a boolean', () => {
    expect(() => decodeOipRequest({ inputs: [fp32Input], outputs: [{ name: 'y' }, { name: 'z', parameters: { binary_data: 1 } }] })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'outputs[1].parameters.binary_data must be true or false, got 1' }),
    );
  });

  it('refuses request parameters that are not an object', () => {
    expect(() => decodeOipRequest({ inputs: [fp32Input], parameters: 'binary' })).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'request.parameters must be an object' }),
    );
  });
});

describe('splitBinaryBody', () => {
  it('splits the JSON header from the bytes after it', () => {
    const header = '{"inputs":[]}';
    const body = Buffer.concat([Buffer.from(header), Buffer.from([1, 2, 3])]);
    const split = splitBinaryBody(body, String(header.length));
    expect(split.header).toBe(header);
    expect(split.binary).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('accepts a header that fills the whole body', () => {
    expect(splitBinaryBody(Buffer.from('{}'), '2')).toEqual({ header: '{}', binary: new Uint8Array(0) });
  });

  it('refuses a header length larger than the body', () => {
    expect(() => splitBinaryBody(Buffer.from('{}'), '10')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_BINARY_HEADER_INVALID',
        message: 'Inference-Header-Content-Length is 10 but the body has only 2 bytes; it must be the size of the JSON header',
      }),
    );
  });

  it('names the header length as sent, not as a rounded number', () => {
    expect(() => splitBinaryBody(Buffer.from('{}'), '99999999999999999999')).toThrow(
      'Inference-Header-Content-Length is 99999999999999999999 but the body has only 2 bytes; it must be the size of the JSON header',
    );
  });

  it.each([['-1'], ['1.5'], [''], ['ten']])('refuses the header length %p', (value) => {
    expect(() => splitBinaryBody(Buffer.from('{}'), value)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_BINARY_HEADER_INVALID',
        message: `Inference-Header-Content-Length must be a byte count, got ${JSON.stringify(value)}`,
      }),
    );
  });
});

describe('parseBinaryHeader', () => {
  it('parses the JSON header', () => {
    expect(parseBinaryHeader('{"inputs":[]}', '13')).toEqual({ inputs: [] });
  });

  it('refuses a header that is not JSON, saying which bytes were read as the header', () => {
    expect(() => parseBinaryHeader('{"inputs":[]', '12')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_MALFORMED_JSON',
        message: expect.stringMatching(
          /^the JSON header \(the first 12 bytes of the body, as Inference-Header-Content-Length says\) is not valid JSON: .+; Inference-Header-Content-Length must be the size of the JSON header in bytes$/,
        ) as unknown,
      }),
    );
  });
});
