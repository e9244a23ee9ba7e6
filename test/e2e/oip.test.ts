import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { binaryRequestBody, readBinaryResponse } from '../support/oip-binary.js';
import { addEchoModels } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

describe('Open Inference Protocol v2 (REST)', () => {
  let t: TestServer;
  const infer = (path: string, json: unknown): ReturnType<typeof requestJson> => requestJson(`${t.inference}/v2/models/${path}`, { method: 'POST', json });

  beforeAll(async () => {
    t = await startTestServer({
      prepare: addEchoModels,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers health live and ready with 200', async () => {
    expect(await requestJson(`${t.inference}/v2/health/live`)).toMatchObject({ status: 200, body: { live: true } });
    expect(await requestJson(`${t.inference}/v2/health/ready`)).toMatchObject({ status: 200, body: { ready: true } });
  });

  it('describes the server with its extensions', async () => {
    expect((await requestJson(`${t.inference}/v2`)).body).toMatchObject({ name: 'sluice', extensions: ['binary_tensor_data'] });
  });

  it('gives model metadata with -1 for variable dimensions, with and without a version', async () => {
    const expected = {
      name: 'iris',
      versions: ['1.0'],
      platform: 'onnxruntime_onnx',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [-1, 4] }],
      outputs: [
        { name: 'probabilities', datatype: 'FP32', shape: [-1, 3] },
        { name: 'label', datatype: 'INT64', shape: [-1] },
      ],
    };
    expect((await requestJson(`${t.inference}/v2/models/iris`)).body).toEqual(expected);
    expect((await requestJson(`${t.inference}/v2/models/iris/versions/1.0`)).body).toEqual(expected);
  });

  it('reports model readiness, with and without a version', async () => {
    expect(await requestJson(`${t.inference}/v2/models/iris/ready`)).toMatchObject({ status: 200, body: { name: 'iris', ready: true } });
    expect(await requestJson(`${t.inference}/v2/models/iris/versions/1.0/ready`)).toMatchObject({ status: 200, body: { ready: true } });
  });

  it('infers with JSON tensors and echoes the request id', async () => {
    const { status, body } = await infer('iris/infer', { id: 'req-7', inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }] });
    expect(status).toBe(200);
    expect(body).toMatchObject({ model_name: 'iris', model_version: '1.0', id: 'req-7' });
    const outputs = (body as { outputs: { name: string; shape: number[]; data: number[] }[] }).outputs;
    expect(outputs.map((o) => [o.name, o.shape])).toEqual([
      ['probabilities', [1, 3]],
      ['label', [1]],
    ]);
    expect(outputs[1]!.data).toEqual([0]);
  });

  it('accepts nested data and a version in the path', async () => {
    const { status, body } = await infer('iris/versions/1.0/infer', { inputs: [{ name: 'input', shape: [2, 4], datatype: 'FP32', data: [SETOSA, [6.7, 3.0, 5.2, 2.3]] }] });
    expect(status).toBe(200);
    expect((body as { outputs: { name: string; data: number[] }[] }).outputs.find((o) => o.name === 'label')!.data).toEqual([0, 2]);
  });

  it('returns only the requested outputs, in the requested order', async () => {
    const { body } = await infer('iris/infer', { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }], outputs: [{ name: 'label' }] });
    expect((body as { outputs: { name: string }[] }).outputs.map((o) => o.name)).toEqual(['label']);
  });

  it('round-trips BYTES tensors as strings, UTF-8 included', async () => {
    const { body } = await infer('echo-bytes/infer', { inputs: [{ name: 'input', shape: [2], datatype: 'BYTES', data: ['hello', 'grüße'] }] });
    expect((body as { outputs: { data: string[] }[] }).outputs[0]!.data).toEqual(['hello', 'grüße']);
  });

  it('takes binary inputs and answers binary outputs (binary tensor extension)', async () => {
    const input = new Float32Array(SETOSA);
    const { body, headerLength } = binaryRequestBody(
      { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', parameters: { binary_data_size: 16 } }], outputs: [{ name: 'probabilities', parameters: { binary_data: true } }, { name: 'label' }] },
      [new Uint8Array(input.buffer)],
    );
    const res = await fetch(`${t.inference}/v2/models/iris/infer`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(headerLength) },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    const { header, binary } = await readBinaryResponse(res);
    expect(header).toMatchObject({
      outputs: [
        { name: 'probabilities', datatype: 'FP32', shape: [1, 3], parameters: { binary_data_size: 12 } },
        { name: 'label', datatype: 'INT64', shape: [1], data: [0] },
      ],
    });
    const probabilities = new Float32Array(binary.buffer.slice(binary.byteOffset, binary.byteOffset + 12));
    expect(probabilities[0]).toBeGreaterThan(0.9);
  });

  it('answers every output binary with binary_data_output', async () => {
    const res = await fetch(`${t.inference}/v2/models/echo-int64/infer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ parameters: { binary_data_output: true }, inputs: [{ name: 'input', shape: [2], datatype: 'INT64', data: [7, -9] }] }),
    });
    const { header, binary } = await readBinaryResponse(res);
    expect(header).toMatchObject({ outputs: [{ name: 'output', parameters: { binary_data_size: 16 } }] });
    expect([...new BigInt64Array(binary.buffer.slice(binary.byteOffset, binary.byteOffset + 16))]).toEqual([7n, -9n]);
  });

  it('carries FP16 as raw half bits in binary form', async () => {
    const halves = new Uint16Array([0x3c00, 0xc000, 0x7bff, 0x0001]); // 1, -2, 65504, smallest subnormal
    const { body, headerLength } = binaryRequestBody(
      { inputs: [{ name: 'input', shape: [2, 2], datatype: 'FP16', parameters: { binary_data_size: 8 } }], parameters: { binary_data_output: true } },
      [new Uint8Array(halves.buffer)],
    );
    const res = await fetch(`${t.inference}/v2/models/echo-fp16/infer`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(headerLength) },
      body,
    });
    const { binary } = await readBinaryResponse(res);
    expect([...new Uint16Array(binary.buffer.slice(binary.byteOffset, binary.byteOffset + 8))]).toEqual([...halves]);
  });

  it('refuses an empty tensor with a dimension over 2^32 - 1 with 400 SLUICE_TENSOR_SHAPE_MISMATCH, before ONNX Runtime sees it', async () => {
    expect(await infer('echo-fp32/infer', { inputs: [{ name: 'input', shape: [0, 9007199254740991], datatype: 'FP32', data: [] }] })).toMatchObject({
      status: 400,
      body: {
        error: 'input `input` of model `echo-fp32` has shape [0,9007199254740991]: dimension 1 is over 4294967295, the largest a dimension may be',
        errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH',
      },
    });
  });

  it('runs an empty tensor whose dimension is 2^32 - 1, the largest ONNX Runtime takes', async () => {
    expect(await infer('echo-fp32/infer', { inputs: [{ name: 'input', shape: [4294967295, 0], datatype: 'FP32', data: [] }] })).toMatchObject({
      status: 200,
      body: { outputs: [{ name: 'output', datatype: 'FP32', shape: [4294967295, 0], data: [] }] },
    });
  });

  it('answers errors in the OIP style {"error"}', async () => {
    expect(await infer('nope/infer', { inputs: [] })).toMatchObject({
      status: 404,
      body: { error: 'model `nope` is not registered; registered models: echo-bytes, echo-fp16, echo-fp32, echo-int64, iris, mlp', errorCode: 'SLUICE_MODEL_NOT_FOUND' },
    });
  });
});
