import { describe, expect, it } from '@jest/globals';
import { encodeOipResponse } from '../../../../../../src/api/rest/inference/oip/oip-response-encoder.js';
import type { Tensor } from '../../../../../../src/sdk/tensor/index.js';

const probabilities: Tensor = { name: 'probabilities', datatype: 'FP32', shape: [1, 2], data: new Float32Array([0.25, 0.75]) };
const label: Tensor = { name: 'label', datatype: 'INT64', shape: [1], data: new BigInt64Array([1n]) };
const text: Tensor = { name: 'text', datatype: 'BYTES', shape: [2], data: [new TextEncoder().encode('ab'), new Uint8Array(0)] };
const model = { name: 'iris', version: '1' };

function binaryParts(encoded: ReturnType<typeof encodeOipResponse>): { header: unknown; tail: Uint8Array } {
  if (encoded.kind !== 'binary') throw new Error('expected a binary response');
  return {
    header: JSON.parse(encoded.body.subarray(0, encoded.headerLength).toString('utf8')),
    tail: new Uint8Array(encoded.body.subarray(encoded.headerLength)),
  };
}

describe('encodeOipResponse', () => {
  it('answers JSON with every output’s data when none is binary', () => {
    expect(encodeOipResponse({ ...model, id: 'r1' }, [label, probabilities], () => false)).toEqual({
      kind: 'json',
      body: {
        model_name: 'iris',
        model_version: '1',
        id: 'r1',
        outputs: [
          { name: 'label', datatype: 'INT64', shape: [1], data: [1] },
          { name: 'probabilities', datatype: 'FP32', shape: [1, 2], data: [0.25, 0.75] },
        ],
      },
    });
  });

  it('leaves the id out when the request had none', () => {
    const encoded = encodeOipResponse(model, [label], () => false);
    expect(encoded.kind === 'json' && encoded.body).not.toHaveProperty('id');
  });

  it('answers strings for BYTES outputs in JSON', () => {
    const encoded = encodeOipResponse(model, [text], () => false);
    expect(encoded.kind === 'json' && encoded.body.outputs[0]!.data).toEqual(['ab', '']);
  });

  it('puts binary outputs after the JSON header, in output order, with their sizes', () => {
    const encoded = encodeOipResponse(model, [probabilities, label], () => true);
    const { header, tail } = binaryParts(encoded);
    expect(header).toEqual({
      model_name: 'iris',
      model_version: '1',
      outputs: [
        { name: 'probabilities', datatype: 'FP32', shape: [1, 2], parameters: { binary_data_size: 8 } },
        { name: 'label', datatype: 'INT64', shape: [1], parameters: { binary_data_size: 8 } },
      ],
    });
    const expected = new Uint8Array(16);
    expected.set(new Uint8Array(new Float32Array([0.25, 0.75]).buffer), 0);
    expected.set(new Uint8Array(new BigInt64Array([1n]).buffer), 8);
    expect(tail).toEqual(expected);
  });

  it('gives the header length in bytes, not characters', () => {
    const encoded = encodeOipResponse({ name: 'modèle', version: '1' }, [label], () => true);
    expect(encoded.kind === 'binary' && encoded.headerLength).toBe(Buffer.byteLength(JSON.stringify(binaryParts(encoded).header)));
    expect(binaryParts(encoded).tail).toEqual(new Uint8Array(new BigInt64Array([1n]).buffer));
  });

  it('keeps JSON data for outputs that are not binary in a binary response', () => {
    const encoded = encodeOipResponse(model, [label, probabilities], (name) => name === 'probabilities');
    const { header, tail } = binaryParts(encoded);
    expect((header as { outputs: unknown[] }).outputs).toEqual([
      { name: 'label', datatype: 'INT64', shape: [1], data: [1] },
      { name: 'probabilities', datatype: 'FP32', shape: [1, 2], parameters: { binary_data_size: 8 } },
    ]);
    expect(tail).toEqual(new Uint8Array(new Float32Array([0.25, 0.75]).buffer));
  });

  it('writes BYTES outputs with 4-byte little-endian length prefixes', () => {
    const { header, tail } = binaryParts(encodeOipResponse(model, [text], () => true));
    expect((header as { outputs: { parameters: unknown }[] }).outputs[0]!.parameters).toEqual({ binary_data_size: 10 });
    expect(tail).toEqual(new Uint8Array([2, 0, 0, 0, 0x61, 0x62, 0, 0, 0, 0]));
  });
});
