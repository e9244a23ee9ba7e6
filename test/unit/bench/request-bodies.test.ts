import { describe, expect, it } from '@jest/globals';
import { float32Bytes, handRolledBinaryRequest, handRolledJsonRequest, oipBinaryRequest, predictionsRequest } from '../../../bench/request-bodies.js';

const instance = Float32Array.from([0.5, -1, 2]);

describe('request bodies', () => {
  it('writes FP32 values little-endian', () => {
    const bytes = float32Bytes(instance);
    expect(bytes.byteLength).toBe(12);
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4), bytes.readFloatLE(8)]).toEqual([0.5, -1, 2]);
  });

  it('sends the hand-rolled route JSON {data} or raw bytes', () => {
    expect(handRolledJsonRequest(instance)).toEqual({ path: '/predict', headers: { 'content-type': 'application/json' }, body: '{"data":[0.5,-1,2]}' });
    const binary = handRolledBinaryRequest(instance);
    expect(binary.headers).toEqual({ 'content-type': 'application/octet-stream' });
    expect(binary.body).toEqual(float32Bytes(instance));
  });

  it('sends /predictions a bare array', () => {
    expect(predictionsRequest('mlp', instance)).toEqual({ path: '/predictions/mlp', headers: { 'content-type': 'application/json' }, body: '[0.5,-1,2]' });
  });

  it('frames an OIP binary request: JSON header of the announced length, then the tensor bytes', () => {
    const request = oipBinaryRequest('cnn', 'input', [1, 3], instance);
    expect(request.path).toBe('/v2/models/cnn/infer');
    const body = request.body as Buffer;
    const headerLength = Number(request.headers['inference-header-content-length']);
    expect(JSON.parse(body.toString('utf8', 0, headerLength))).toEqual({
      inputs: [{ name: 'input', shape: [1, 3], datatype: 'FP32', parameters: { binary_data_size: 12 } }],
      parameters: { binary_data_output: true },
    });
    expect(body.subarray(headerLength)).toEqual(float32Bytes(instance));
  });
});
