import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status, type Client } from '@grpc/grpc-js';
import { addEchoModels } from '../support/store-models.js';
import { callError, float32Bytes, float32Values, grpcClient, unary } from '../support/grpc-clients.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

interface InferResponse {
  model_name: string;
  model_version: string;
  id: string;
  outputs: { name: string; datatype: string; shape: string[]; contents: Record<string, unknown[]> | null }[];
  raw_output_contents: Buffer[];
}

function irisInput(contents: Record<string, unknown[]>, shape: readonly (number | string)[] = [1, 4], datatype = 'FP32'): Record<string, unknown> {
  return { name: 'input', datatype, shape, contents };
}

describe('Open Inference Protocol over gRPC (inference.GRPCInferenceService)', () => {
  let t: TestServer;
  let client: Client;

  beforeAll(async () => {
    t = await startTestServer({
      prepare: addEchoModels,
    });
    client = grpcClient('oip', t.grpcInference);
  });
  afterAll(async () => {
    client.close();
    await t.close();
  });

  it('answers a call quoting a 100 000-character name with its message cut short, and the connection keeps serving', async () => {
    const request = (model: string): unknown => ({ model_name: model, inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], contents: { fp32_contents: [1, 2, 3, 4] } }] });
    const error = await callError(unary(client, 'ModelInfer', request('m'.repeat(100_000))));
    const next = await callError(unary(client, 'ModelInfer', request('tulip')));
    expect({ code: error.code, errorCode: error.errorCode, next: next.code }).toEqual({ code: status.NOT_FOUND, errorCode: 'SLUICE_MODEL_NOT_FOUND', next: status.NOT_FOUND });
    expect(error.details).toMatch(/… \(\d+ more characters\)$/);
  });

  it('answers ServerLive and ServerReady', async () => {
    expect(await unary(client, 'ServerLive', {})).toEqual({ live: true });
    expect(await unary(client, 'ServerReady', {})).toEqual({ ready: true });
  });

  it('answers ServerMetadata with the server name and version', async () => {
    expect(await unary(client, 'ServerMetadata', {})).toMatchObject({ name: 'sluice', version: t.server.core.serverVersion });
  });

  it('answers ModelReady with and without a version', async () => {
    expect(await unary(client, 'ModelReady', { name: 'iris' })).toEqual({ ready: true });
    expect(await unary(client, 'ModelReady', { name: 'iris', version: '1.0' })).toEqual({ ready: true });
  });

  it('answers ModelMetadata with -1 for variable dimensions', async () => {
    expect(await unary(client, 'ModelMetadata', { name: 'iris' })).toEqual({
      name: 'iris',
      versions: ['1.0'],
      platform: 'onnxruntime_onnx',
      inputs: [{ name: 'input', datatype: 'FP32', shape: ['-1', '4'] }],
      outputs: [
        { name: 'probabilities', datatype: 'FP32', shape: ['-1', '3'] },
        { name: 'label', datatype: 'INT64', shape: ['-1'] },
      ],
    });
  });

  it('infers with typed contents and answers typed contents, echoing the id', async () => {
    const response = await unary<InferResponse>(client, 'ModelInfer', { model_name: 'iris', id: 'req-7', inputs: [irisInput({ fp32_contents: SETOSA })] });
    expect(response).toMatchObject({ model_name: 'iris', model_version: '1.0', id: 'req-7', raw_output_contents: [] });
    expect(response.outputs.map((o) => [o.name, o.datatype, o.shape])).toEqual([
      ['probabilities', 'FP32', ['1', '3']],
      ['label', 'INT64', ['1']],
    ]);
    expect(response.outputs[1]?.contents?.['int64_contents']).toEqual(['0']);
  });

  it('infers with raw_input_contents and answers raw_output_contents', async () => {
    const response = await unary<InferResponse>(client, 'ModelInfer', {
      model_name: 'iris',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [2, 4] }],
      raw_input_contents: [float32Bytes([...SETOSA, ...SETOSA])],
    });
    expect(response.outputs.map((o) => o.contents)).toEqual([null, null]);
    expect(response.raw_output_contents.map((b) => b.byteLength)).toEqual([2 * 3 * 4, 2 * 8]);
    const probabilities = float32Values(response.raw_output_contents[0] ?? Buffer.alloc(0));
    expect(probabilities[0]).toBeGreaterThan(0.5);
  });

  it('returns only the requested outputs', async () => {
    const response = await unary<InferResponse>(client, 'ModelInfer', { model_name: 'iris', inputs: [irisInput({ fp32_contents: SETOSA })], outputs: [{ name: 'label' }] });
    expect(response.outputs.map((o) => o.name)).toEqual(['label']);
  });

  it('answers every output for an empty outputs list, as leaving it out does', async () => {
    const response = await unary<InferResponse>(client, 'ModelInfer', { model_name: 'iris', inputs: [irisInput({ fp32_contents: SETOSA })], outputs: [] });
    expect(response.outputs.map((o) => o.name)).toEqual(['probabilities', 'label']);
  });

  it('refuses an output asked for twice with INVALID_ARGUMENT, as the HTTP route does', async () => {
    const error = await callError(unary(client, 'ModelInfer', { model_name: 'iris', inputs: [irisInput({ fp32_contents: SETOSA })], outputs: [{ name: 'label' }, { name: 'label' }] }));
    expect(error).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'outputs[1]: output `label` is asked for more than once; ask for each output once',
      errorCode: 'SLUICE_REQUEST_INVALID',
    });
  });

  it('refuses an output asked for with the classification extension with INVALID_ARGUMENT', async () => {
    const outputs = [{ name: 'probabilities', parameters: { classification: { int64_param: 2 } } }];
    const error = await callError(unary(client, 'ModelInfer', { model_name: 'iris', inputs: [irisInput({ fp32_contents: SETOSA })], outputs }));
    expect(error).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'outputs[0].parameters.classification: Sluice does not implement the classification extension (ServerMetadata lists its extensions); ask for output `probabilities` without it and rank its values',
      errorCode: 'SLUICE_REQUEST_INVALID',
    });
  });

  it('refuses a negative dimension with INVALID_ARGUMENT naming it, as the HTTP route does', async () => {
    const error = await callError(unary(client, 'ModelInfer', { model_name: 'iris', inputs: [irisInput({ fp32_contents: SETOSA }, ['1', '-4'])] }));
    expect(error).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'inputs[0].shape[1] is -4; a shape is a list of non-negative integers, e.g. [1, 4]',
      errorCode: 'SLUICE_REQUEST_INVALID',
    });
  });

  it('refuses a dimension beyond 2^53 - 1 with INVALID_ARGUMENT, showing it exactly', async () => {
    const error = await callError(unary(client, 'ModelInfer', { model_name: 'echo-fp32', inputs: [{ name: 'input', datatype: 'FP32', shape: ['9223372036854775807', '0'] }], raw_input_contents: [Buffer.alloc(0)] }));
    expect(error).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'inputs[0].shape[0] is 9223372036854775807, beyond 2^53 - 1 (a count that large is not exact); a shape is a list of non-negative integers, e.g. [1, 4]',
      errorCode: 'SLUICE_REQUEST_INVALID',
    });
  });

  it('carries BYTES and 64-bit INT64 elements exactly in typed contents', async () => {
    const bytes = await unary<InferResponse>(client, 'ModelInfer', {
      model_name: 'echo-bytes',
      inputs: [{ name: 'input', datatype: 'BYTES', shape: [2], contents: { bytes_contents: [Buffer.from('ab'), Buffer.from('')] } }],
    });
    expect(bytes.outputs[0]?.contents?.['bytes_contents']).toEqual([Buffer.from('ab'), Buffer.from('')]);
    const big = await unary<InferResponse>(client, 'ModelInfer', {
      model_name: 'echo-int64',
      inputs: [{ name: 'input', datatype: 'INT64', shape: [2], contents: { int64_contents: ['9007199254740993', '-3'] } }],
    });
    expect(big.outputs[0]?.contents?.['int64_contents']).toEqual(['9007199254740993', '-3']);
  });

  it('carries FP16 as raw contents, the only form it has', async () => {
    const half = Buffer.from(new Uint16Array([0x3c00, 0x4000]).buffer);
    const response = await unary<InferResponse>(client, 'ModelInfer', { model_name: 'echo-fp16', inputs: [{ name: 'input', datatype: 'FP16', shape: [1, 2] }], raw_input_contents: [half] });
    expect(response.raw_output_contents).toEqual([half]);
  });

  it('refuses raw contents whose size does not match the shape with INVALID_ARGUMENT', async () => {
    const error = await callError(
      unary(client, 'ModelInfer', { model_name: 'iris', inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4] }], raw_input_contents: [float32Bytes([1, 2, 3])] }),
    );
    expect(error).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'input `input`: shape [1,4] of FP32 needs 16 bytes, got 12',
      errorCode: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
    });
  });

  it('refuses a raw_input_contents list that does not have one entry per input', async () => {
    const error = await callError(unary(client, 'ModelInfer', { model_name: 'iris', inputs: [irisInput({})], raw_input_contents: [float32Bytes(SETOSA), float32Bytes(SETOSA)] }));
    expect(error).toMatchObject({ code: status.INVALID_ARGUMENT, errorCode: 'SLUICE_REQUEST_INVALID' });
  });

  it('refuses a datatype the model does not take', async () => {
    const error = await callError(unary(client, 'ModelInfer', { model_name: 'iris', inputs: [irisInput({ fp64_contents: SETOSA }, [1, 4], 'FP64')] }));
    expect(error).toMatchObject({ code: status.INVALID_ARGUMENT, errorCode: 'SLUICE_TENSOR_DATATYPE_MISMATCH' });
  });

  it('refuses elements in the contents field of another datatype', async () => {
    const error = await callError(unary(client, 'ModelInfer', { model_name: 'iris', inputs: [irisInput({ int_contents: [1, 2, 3, 4] })] }));
    expect(error).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'input `input` is FP32 but has elements in contents.int_contents; FP32 elements go in contents.fp32_contents',
      errorCode: 'SLUICE_TENSOR_DATATYPE_MISMATCH',
    });
  });

  it('refuses a name that is not a datatype', async () => {
    const error = await callError(unary(client, 'ModelInfer', { model_name: 'iris', inputs: [irisInput({ fp32_contents: SETOSA }, [1, 4], 'FLOAT')] }));
    expect(error).toMatchObject({ code: status.INVALID_ARGUMENT, errorCode: 'SLUICE_TENSOR_UNSUPPORTED_DATATYPE' });
  });

  it('refuses an empty tensor with a dimension over 2^32 - 1 with INVALID_ARGUMENT and SLUICE_TENSOR_SHAPE_MISMATCH, before ONNX Runtime sees it', async () => {
    const error = await callError(unary(client, 'ModelInfer', { model_name: 'echo-fp32', inputs: [{ name: 'input', datatype: 'FP32', shape: ['4294967296', '0'] }], raw_input_contents: [Buffer.alloc(0)] }));
    expect(error).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'input `input` of model `echo-fp32` has shape [4294967296,0]: dimension 0 is over 4294967295, the largest a dimension may be',
      errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH',
    });
  });

  it('answers NOT_FOUND for an unknown model, in inference and metadata', async () => {
    const infer = await callError(unary(client, 'ModelInfer', { model_name: 'nope', inputs: [irisInput({ fp32_contents: SETOSA })] }));
    expect(infer).toMatchObject({ code: status.NOT_FOUND, errorCode: 'SLUICE_MODEL_NOT_FOUND' });
    expect(await callError(unary(client, 'ModelMetadata', { name: 'nope' }))).toMatchObject({ code: status.NOT_FOUND });
    expect(await callError(unary(client, 'ModelReady', { name: 'iris', version: '9' }))).toMatchObject({ code: status.NOT_FOUND, errorCode: 'SLUICE_MODEL_VERSION_NOT_FOUND' });
  });
});
