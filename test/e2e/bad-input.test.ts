import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { archiveManifestEntry, buildTar } from '../support/tar-builder.js';
import { binaryRequestBody, readBinaryResponse } from '../support/oip-binary.js';
import { writeIdentityModel, writeNoZeroRowsModel, writeZerosOfShapeModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const LIMIT = 64 * 1024;

/**
 * Sends a POST with a body of `size` spaces over a raw connection, writing all of it before reading the
 * answer (as clients that read only once they have sent do), and gives the first write error, if any, and
 * the answer's status line.
 */
function sendWholeRequest(base: URL, path: string, size: number, chunked: boolean): Promise<{ writeError: string | undefined; statusLine: string }> {
  return new Promise((resolve) => {
    const socket = connect(Number(base.port), base.hostname);
    let answer = '';
    let writeError: string | undefined;
    socket.on('data', (data: Buffer) => {
      answer += data.toString('latin1');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      writeError ??= error.code ?? error.message;
    });
    socket.on('close', () => {
      resolve({ writeError, statusLine: answer.split('\r\n')[0] ?? '' });
    });
    const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`;
    socket.write(`POST ${path} HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: application/json\r\n${framing}\r\nConnection: close\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    const pump = (): void => {
      while (written < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - written));
        written += piece.length;
        let more: boolean;
        if (chunked) {
          socket.write(`${piece.length.toString(16)}\r\n`);
          socket.write(piece);
          more = socket.write('\r\n');
        } else {
          more = socket.write(piece);
        }
        if (!more) {
          socket.once('drain', pump);
          return;
        }
      }
      if (chunked) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

/**
 * The bad-input corpus: each request gets a clear 4xx with the exact code and message, and the server
 * stays healthy (the last test sends a good request after all of them).
 */
describe('bad input', () => {
  let t: TestServer;
  const post = (path: string, body: string, contentType = 'application/json'): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}${path}`, { method: 'POST', body, headers: { 'content-type': contentType } });
  const oip = (inputs: unknown): ReturnType<typeof requestJson> => requestJson(`${t.inference}/v2/models/iris/infer`, { method: 'POST', json: { inputs } });
  const register = (url: string): ReturnType<typeof requestJson> =>
    requestJson(`${t.management}/models?url=${encodeURIComponent(url)}`, { method: 'POST' });

  beforeAll(async () => {
    t = await startTestServer({
      config: { maxRequestSizeBytes: LIMIT, allowedUrls: ['^https://models\\.example\\.com/.*$', '^http://169\\.254\\.169\\.254/.*$'] },
      prepare: async (store) => {
        const evil = gzipSync(
          await buildTar([archiveManifestEntry({ '../escaped.txt': 'owned' }), { header: { name: '../escaped.txt' }, content: 'owned' }]),
        );
        await writeFile(join(store, 'evil.sluice'), evil);
        await mkdir(join(dirname(store), 'outside'), { recursive: true });
        // The GPU executor takes FP32 data for FP16 inputs and rounds it (on the CPU provider here).
        await addStoreModel(store, 'half', (dir) => writeIdentityModel(dir, 'FP16', [-1, 2]), { name: 'half', version: '1', executor: 'gpu', device: 'gpu' });
        await addStoreModel(store, 'echo-bytes', (dir) => writeIdentityModel(dir, 'BYTES', [-1]), { name: 'echo-bytes', version: '1' });
        await addStoreModel(store, 'no-zero-rows', writeNoZeroRowsModel, { name: 'no-zero-rows', version: '1', batching: { maxBatchSize: 8 } });
        await addStoreModel(store, 'zeros', writeZerosOfShapeModel, { name: 'zeros', version: '1' });
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('malformed JSON → 400 SLUICE_REQUEST_MALFORMED_JSON', async () => {
    expect(await post('/predictions/iris', '[5.1, 3.5,')).toMatchObject({
      status: 400,
      body: { code: 400, type: 'BadRequestException', errorCode: 'SLUICE_REQUEST_MALFORMED_JSON', message: expect.stringMatching(/^the request body is not valid JSON: /) as unknown },
    });
  });

  it('a content type the model cannot read → 415', async () => {
    expect(await post('/predictions/iris', '<x/>', 'application/xml')).toMatchObject({
      status: 415,
      body: { errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE', message: 'model `iris` takes JSON tensors, got application/xml; send Content-Type: application/json' },
    });
  });

  it('a non-JSON content type on OIP infer → 415', async () => {
    expect(await post('/v2/models/iris/infer', 'a,b', 'text/csv')).toMatchObject({ status: 415, body: { errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE' } });
  });

  // `curl -d` sends form data; Triton's and KServe's own examples post OIP JSON that way.
  it.each(['application/x-www-form-urlencoded', 'text/plain', ''])('an OIP JSON body sent as %j is read as JSON', async (contentType) => {
    const body = JSON.stringify({ inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }], outputs: [{ name: 'label' }] });
    const headers: Record<string, string> = contentType === '' ? {} : { 'content-type': contentType };
    const answer = await requestJson(`${t.inference}/v2/models/iris/infer`, { method: 'POST', body: Buffer.from(body), headers });
    expect(answer).toMatchObject({ status: 200, body: { outputs: [{ name: 'label', data: [0] }] } });
  });

  it('form data on OIP infer that is not JSON → 400 SLUICE_REQUEST_MALFORMED_JSON', async () => {
    expect(await post('/v2/models/iris/infer', 'a=b', 'application/x-www-form-urlencoded')).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_MALFORMED_JSON' } });
  });

  const LATIN1 = 'the body is declared as charset=latin1, but Sluice reads JSON and text bodies as UTF-8 only; send the body UTF-8 encoded, with charset=utf-8 or no charset';

  it.each(['/predictions/iris', '/predictions/iris/1.0'])('a JSON body declared as Latin-1 on %s → 415 naming the charset', async (path) => {
    expect(await post(path, JSON.stringify(SETOSA), 'application/json; charset=latin1')).toMatchObject({
      status: 415,
      body: { message: LATIN1, errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE' },
    });
  });

  it.each(['/v2/models/iris/infer', '/v2/models/iris/versions/1.0/infer'])('an OIP body declared as UTF-16 on %s → 415 naming the charset', async (path) => {
    const body = JSON.stringify({ inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }] });
    expect(await post(path, body, 'application/json; charset="UTF-16"')).toMatchObject({
      status: 415,
      body: { error: expect.stringMatching(/^the body is declared as charset=utf-16, /) as unknown, errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE' },
    });
  });

  it('JSON sent as text/plain in Latin-1 → 415, as it is read as JSON', async () => {
    expect(await post('/predictions/iris', JSON.stringify(SETOSA), 'text/plain; charset=latin1')).toMatchObject({ status: 415, body: { message: LATIN1 } });
  });

  it.each(['application/json; charset=UTF-8', 'application/json;charset=us-ascii'])('a JSON body declared as %s is read', async (contentType) => {
    expect(await post('/predictions/iris', JSON.stringify(SETOSA), contentType)).toMatchObject({ status: 200, body: { label: 'setosa' } });
  });

  it.each(['/predictions/iris', '/v2/models/iris/infer'])('a gzip-compressed body on %s → 415 naming the coding, before it is read', async (path) => {
    const body = JSON.stringify({ inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }] });
    const answer = await requestJson(`${t.inference}${path}`, {
      method: 'POST',
      body: gzipSync(body),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(answer).toMatchObject({ status: 415, body: { errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE' } });
    const { message, error } = answer.body as { message?: string; error?: string };
    expect(message ?? error).toBe(
      'the request body is sent with Content-Encoding: gzip, which Sluice does not decode; send it uncompressed, with no Content-Encoding (or identity)',
    );
  });

  it('a plain body that claims Content-Encoding: br → 415, not read as if it were plain', async () => {
    expect(
      await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', body: JSON.stringify(SETOSA), headers: { 'content-type': 'application/json', 'content-encoding': 'br' } }),
    ).toMatchObject({ status: 415, body: { errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('a body with Content-Encoding: identity is read as it is', async () => {
    expect(
      await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', body: JSON.stringify(SETOSA), headers: { 'content-type': 'application/json', 'content-encoding': 'Identity' } }),
    ).toMatchObject({ status: 200, body: { label: 'setosa' } });
  });

  it('a very long shape → 400 quoting its first 16 dimensions and its rank, not all of it', async () => {
    const shape = Array.from({ length: 10_000 }, () => 1);
    expect(await oip([{ name: 'input', shape, datatype: 'FP32', data: [1] }])).toMatchObject({
      status: 400,
      body: { error: 'input `input` of model `iris` must have shape [-1,4] (-1 = any size), got [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,… (10000 dims)]', errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH' },
    });
  });

  it('unknown model → 404', async () => {
    expect(await post('/predictions/tulip', JSON.stringify(SETOSA))).toMatchObject({
      status: 404,
      body: { type: 'ModelNotFoundException', message: 'model `tulip` is not registered; registered models: echo-bytes, half, iris, mlp, no-zero-rows, zeros' },
    });
  });

  it('unknown version → 404', async () => {
    expect(await post('/predictions/iris/3', JSON.stringify(SETOSA))).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_VERSION_NOT_FOUND' } });
  });

  it('unknown input name → 400 listing the inputs', async () => {
    expect(await oip([{ name: 'petals', shape: [1, 4], datatype: 'FP32', data: SETOSA }])).toMatchObject({
      status: 400,
      body: { error: 'model `iris` has no input `petals`; its inputs are: input', errorCode: 'SLUICE_TENSOR_UNKNOWN_INPUT' },
    });
  });

  it('wrong datatype → 400 with expected and got', async () => {
    expect(await oip([{ name: 'input', shape: [1, 4], datatype: 'INT32', data: [5, 3, 1, 0] }])).toMatchObject({
      status: 400,
      body: { error: 'input `input` of model `iris` must be FP32, got INT32', errorCode: 'SLUICE_TENSOR_DATATYPE_MISMATCH' },
    });
  });

  it('wrong shape → 400 with expected and got', async () => {
    expect(await oip([{ name: 'input', shape: [1, 5], datatype: 'FP32', data: [...SETOSA, 1] }])).toMatchObject({
      status: 400,
      body: { error: 'input `input` of model `iris` must have shape [-1,4] (-1 = any size), got [1,5]', errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH' },
    });
  });

  it('data length not matching the shape → 400', async () => {
    expect(await oip([{ name: 'input', shape: [2, 4], datatype: 'FP32', data: SETOSA }])).toMatchObject({
      status: 400,
      body: { error: 'input `input`: shape [2,4] needs 8 values, got 4', errorCode: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH' },
    });
  });

  it('a string in numeric data → 400 naming the element', async () => {
    expect(await oip([{ name: 'input', shape: [1, 4], datatype: 'FP32', data: [5.1, 'wide', 1.4, 0.2] }])).toMatchObject({
      status: 400,
      body: { error: 'input `input`: element 1 is "wide", expected a finite number for FP32', errorCode: 'SLUICE_TENSOR_INVALID_VALUE' },
    });
  });

  it('Infinity (a JSON number too large for a double) in numeric data → 400', async () => {
    expect(await post('/predictions/iris', '[5.1, 1e999, 1.4, 0.2]')).toMatchObject({
      status: 400,
      body: { message: 'input `input`: element 1 is Infinity, expected a finite number for FP32', errorCode: 'SLUICE_TENSOR_INVALID_VALUE' },
    });
  });

  const FP32_OVERFLOW = 'element 0 is 3.5e+38, expected a number that rounds into [-3.4028235e+38, 3.4028235e+38] for FP32';

  it('a finite number too large for FP32 → 400 giving the range (TorchServe route)', async () => {
    expect(await post('/predictions/iris', '[3.5e38, 1, 1, 1]')).toMatchObject({
      status: 400,
      body: { code: 400, message: `input \`input\`: ${FP32_OVERFLOW}`, errorCode: 'SLUICE_TENSOR_INVALID_VALUE' },
    });
  });

  it('a finite number too large for FP32 → 400 giving the range (KServe v1)', async () => {
    expect(await post('/v1/models/iris:predict', '{"instances": [[3.5e38, 1, 1, 1]]}')).toMatchObject({
      status: 400,
      body: { error: `instances[0]: input \`input\`: ${FP32_OVERFLOW}`, errorCode: 'SLUICE_TENSOR_INVALID_VALUE' },
    });
  });

  it('a finite number too large for FP32 → 400 giving the range (OIP v2)', async () => {
    expect(await oip([{ name: 'input', shape: [1, 4], datatype: 'FP32', data: [3.5e38, 1, 1, 1] }])).toMatchObject({
      status: 400,
      body: { error: `input \`input\`: ${FP32_OVERFLOW}`, errorCode: 'SLUICE_TENSOR_INVALID_VALUE' },
    });
  });

  it('a finite number too large for FP16 → 400 giving the range', async () => {
    expect(await oip([{ name: 'input', shape: [1, 4], datatype: 'FP16', data: [1, 70000, 1, 1] }])).toMatchObject({
      status: 400,
      body: { error: 'input `input`: element 1 is 70000, expected a number that rounds into [-65504, 65504] for FP16', errorCode: 'SLUICE_TENSOR_INVALID_VALUE' },
    });
  });

  it('FP32 data beyond FP16\'s range for an FP16 input → 400 naming the input and the element, not an infinity', async () => {
    const json = { inputs: [{ name: 'input', shape: [2, 2], datatype: 'FP32', data: [1, -2, -1e6, 3] }] };
    expect(await requestJson(`${t.inference}/v2/models/half/infer`, { method: 'POST', json })).toMatchObject({
      status: 400,
      body: {
        error: "input `input` of model `half` takes FP16: FP32 element 2 is -1000000, too large to round into FP16's range [-65504, 65504] (a magnitude of 65520 or more), and would become an infinity; send values within that range",
        errorCode: 'SLUICE_TENSOR_INVALID_VALUE',
      },
    });
  });

  it('FP32 infinities sent as such for an FP16 input stay infinities', async () => {
    const { body, headerLength } = binaryRequestBody(
      { inputs: [{ name: 'input', shape: [1, 2], datatype: 'FP32', parameters: { binary_data_size: 8 } }], parameters: { binary_data_output: true } },
      [new Uint8Array(new Float32Array([Infinity, 65519]).buffer)],
    );
    const res = await fetch(`${t.inference}/v2/models/half/infer`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(headerLength) },
      body,
    });
    expect(res.status).toBe(200);
    const { binary } = await readBinaryResponse(res);
    expect([...new Uint16Array(binary.buffer.slice(binary.byteOffset, binary.byteOffset + 4))]).toEqual([0x7c00, 0x7bff]);
  });

  it('a shape dimension beyond 2^53 - 1 → 400 naming it', async () => {
    expect(await post('/v2/models/iris/infer', '{"inputs": [{"name": "input", "shape": [1e308, 1e308, 0], "datatype": "FP32", "data": []}]}')).toMatchObject({
      status: 400,
      body: {
        error: 'inputs[0].shape[0] is 1e+308, beyond 2^53 - 1 (a JSON number that large is not exact); a shape is a list of non-negative integers, e.g. [1, 4]',
        errorCode: 'SLUICE_REQUEST_INVALID',
      },
    });
  });

  it('zero rows for a model that cannot run them → 400 naming the input, not a failure of the server', async () => {
    const zeroRows = { inputs: [{ name: 'input', shape: [0, 2], datatype: 'FP32', data: [] }] };
    const answer = await requestJson(`${t.inference}/v2/models/no-zero-rows/infer`, { method: 'POST', json: zeroRows });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: {
        error: expect.stringMatching(/^input `input` has shape \[0,2\], which holds no values, and the model cannot run it \(ONNX Runtime failed to run model file `no-zero-rows\.onnx`: .+\); send at least one row$/),
        errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH',
      },
    });
    const oneRow = { inputs: [{ name: 'input', shape: [1, 2], datatype: 'FP32', data: [1, 2] }] };
    expect(await requestJson(`${t.inference}/v2/models/no-zero-rows/infer`, { method: 'POST', json: oneRow })).toMatchObject({ status: 200 });
  });

  it('zero rows for a model that can run them → 200 with zero rows of every output', async () => {
    expect(await oip([{ name: 'input', shape: [0, 4], datatype: 'FP32', data: [] }])).toMatchObject({
      status: 200,
      body: {
        outputs: [
          { name: 'probabilities', datatype: 'FP32', shape: [0, 3], data: [] },
          { name: 'label', datatype: 'INT64', shape: [0], data: [] },
        ],
      },
    });
  });

  it('an output too large to spell out as JSON → 400 SLUICE_RESPONSE_TOO_LARGE saying how to get it, and the server keeps serving', async () => {
    // 4 097 × 4 097 values, just over the 2^24 an answer spells out; far more of them once took the server down.
    const huge = { inputs: [{ name: 'shape', shape: [2], datatype: 'INT64', data: [4097, 4097] }] };
    const answer = await requestJson(`${t.inference}/v2/models/zeros/infer`, { method: 'POST', json: huge });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: {
        error: 'output `zeros` holds 16785409 values, more than the 16777216 an answer can spell out one by one; ask for it as binary data (OIP `binary_data_output: true` with binary tensors), or send fewer rows',
        errorCode: 'SLUICE_RESPONSE_TOO_LARGE',
      },
    });
    const small = { inputs: [{ name: 'shape', shape: [2], datatype: 'INT64', data: [1, 2] }] };
    expect(await requestJson(`${t.inference}/v2/models/zeros/infer`, { method: 'POST', json: small })).toMatchObject({
      status: 200,
      body: { outputs: [{ name: 'zeros', datatype: 'FP32', shape: [1, 2], data: [0, 0] }] },
    });
  });

  it('an output too large to spell out as JSON through a handler (/predictions) → 400 SLUICE_RESPONSE_TOO_LARGE, not a handler failure', async () => {
    const answer = await post('/predictions/zeros', JSON.stringify([4097, 4097]));
    expect({ status: answer.status, body: answer.body }).toMatchObject({
      status: 400,
      body: { code: 400, errorCode: 'SLUICE_RESPONSE_TOO_LARGE', message: expect.stringMatching(/^output `zeros` holds 16785409 values, more than the 16777216 /) as unknown },
    });
  });

  describe('a JSON body that is not UTF-8 → 400 SLUICE_REQUEST_MALFORMED_JSON, not its bytes replaced by U+FFFD', () => {
    // {"data": [5.1, 3.5, 1.4, 0.2], "x": "<0xff 0xfe>"}: well-formed JSON, but for two bytes that are no UTF-8.
    const notUtf8 = Buffer.concat([Buffer.from('{"data": [5.1, 3.5, 1.4, 0.2], "x": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const refusal = 'the request body is not valid UTF-8 text; send JSON UTF-8 encoded';
    const send = (path: string, body: Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }): ReturnType<typeof requestJson> =>
      requestJson(`${t.inference}${path}`, { method: 'POST', body, headers });

    it('on /predictions', async () => {
      expect(await send('/predictions/iris', notUtf8)).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_MALFORMED_JSON', message: refusal } });
    });

    it('on /predictions, sent as text/plain as curl -d does', async () => {
      expect(await send('/predictions/iris', notUtf8, { 'content-type': 'text/plain' })).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_MALFORMED_JSON', message: refusal } });
    });

    it('on KServe v1 :predict', async () => {
      const body = Buffer.concat([Buffer.from('{"instances": [[5.1, 3.5, 1.4, 0.2]], "x": "'), Buffer.from([0xc3]), Buffer.from('"}')]);
      expect(await send('/v1/models/iris:predict', body)).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_MALFORMED_JSON', error: refusal } });
    });

    it('on OIP infer, in the JSON body and in the JSON header of binary tensors', async () => {
      const header = Buffer.concat([Buffer.from('{"id": "'), Buffer.from([0xff]), Buffer.from('", "inputs": [{"name": "input", "shape": [1, 4], "datatype": "FP32", "data": [5.1, 3.5, 1.4, 0.2]}]}')]);
      const answers = await Promise.all([
        send('/v2/models/iris/infer', header),
        send('/v2/models/iris/infer', header, { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(header.byteLength) }),
      ]);
      expect(answers.map((a) => [a.status, a.body])).toEqual([
        [400, { error: refusal, errorCode: 'SLUICE_REQUEST_MALFORMED_JSON' }],
        [400, { error: refusal, errorCode: 'SLUICE_REQUEST_MALFORMED_JSON' }],
      ]);
    });
  });

  it('an empty outputs list → every output, not a failed run', async () => {
    const json = { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }], outputs: [] };
    expect(await requestJson(`${t.inference}/v2/models/iris/infer`, { method: 'POST', json })).toMatchObject({
      status: 200,
      body: { outputs: [{ name: 'probabilities' }, { name: 'label', data: [0] }] },
    });
  });

  it('an output asked for twice → 400', async () => {
    const json = { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }], outputs: [{ name: 'label', parameters: { binary_data: true } }, { name: 'label' }] };
    expect(await requestJson(`${t.inference}/v2/models/iris/infer`, { method: 'POST', json })).toMatchObject({
      status: 400,
      body: { error: 'outputs[1]: output `label` is asked for more than once; ask for each output once', errorCode: 'SLUICE_REQUEST_INVALID' },
    });
  });

  it('the classification extension → 400 rather than the raw tensor', async () => {
    const json = { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }], outputs: [{ name: 'probabilities', parameters: { classification: 2 } }] };
    expect(await requestJson(`${t.inference}/v2/models/iris/infer`, { method: 'POST', json })).toMatchObject({
      status: 400,
      body: {
        error: 'outputs[0].parameters.classification: Sluice does not implement the classification extension (GET /v2 lists its extensions); ask for output `probabilities` without it and rank its values',
        errorCode: 'SLUICE_REQUEST_INVALID',
      },
    });
  });

  it('an OIP priority of 1e400 → 400 showing it as Infinity', async () => {
    expect(await post('/v2/models/iris/infer', `{"parameters": {"priority": 1e400}, "inputs": [{"name": "input", "shape": [1, 4], "datatype": "FP32", "data": [${SETOSA.join(', ')}]}]}`)).toMatchObject({
      status: 400,
      body: { error: 'parameters.priority must be an integer of at least 1, got Infinity', errorCode: 'SLUICE_REQUEST_INVALID' },
    });
  });

  it('ragged nested OIP data whose count matches the shape → 400', async () => {
    expect(await oip([{ name: 'input', shape: [2, 4], datatype: 'FP32', data: [[1, 2, 3, 4, 5], [1, 2, 3]] }])).toMatchObject({
      status: 400,
      body: {
        error: 'input `input`: nested data does not match shape [2,4]: row [0] has 5 values, expected 4; nest the data exactly as the shape says, or send it flat',
        errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH',
      },
    });
  });

  it('a binary_data_output that is not a boolean → 400', async () => {
    const json = { parameters: { binary_data_output: 'yes' }, inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }] };
    expect(await requestJson(`${t.inference}/v2/models/iris/infer`, { method: 'POST', json })).toMatchObject({
      status: 400,
      body: { error: 'parameters.binary_data_output must be true or false, got "yes"', errorCode: 'SLUICE_REQUEST_INVALID' },
    });
  });

  it('an output binary_data that is not a boolean → 400', async () => {
    const json = { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }], outputs: [{ name: 'label', parameters: { binary_data: 'yes' } }] };
    expect(await requestJson(`${t.inference}/v2/models/iris/infer`, { method: 'POST', json })).toMatchObject({
      status: 400,
      body: { error: 'outputs[0].parameters.binary_data must be true or false, got "yes"', errorCode: 'SLUICE_REQUEST_INVALID' },
    });
  });

  it('NaN in numeric data → 400 (NaN is not JSON)', async () => {
    expect(await post('/predictions/iris', '[NaN, 3.5, 1.4, 0.2]')).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_MALFORMED_JSON' } });
  });

  it('a body over the size limit → 413', async () => {
    expect(await post('/predictions/mlp', JSON.stringify(Array.from({ length: LIMIT }, () => 1)))).toMatchObject({
      status: 413,
      body: {
        code: 413,
        errorCode: 'SLUICE_REQUEST_TOO_LARGE',
        message: `the request body is larger than the limit of ${LIMIT} bytes; send less data per request or raise maxRequestSizeBytes`,
      },
    });
  });

  // A body this far over the limit is still being sent when the refusal is ready: the server must read the
  // rest (and drop it) before it closes the connection, or a client that writes its whole request before it
  // reads the answer (Python's requests, say) gets a reset connection instead of the 413.
  it.each([
    ['/predictions/mlp', false],
    ['/v2/models/mlp/infer', false],
    ['/v1/models/mlp:predict', false],
    ['/predictions/mlp', true],
  ])('a body far over the size limit on %s (chunked: %s) → a 413 that a client writing its whole request first reads', async (path, chunked) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await sendWholeRequest(new URL(t.inference), path, 8 * 1024 * 1024, chunked);
      expect(answer).toEqual({ writeError: undefined, statusLine: 'HTTP/1.1 413 Payload Too Large' });
    }
  });

  it('a binary header length larger than the body → 400', async () => {
    const { body } = binaryRequestBody({ inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', parameters: { binary_data_size: 16 } }] }, [new Uint8Array(16)]);
    const answer = await requestJson(`${t.inference}/v2/models/iris/infer`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(body.byteLength + 10) },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        error: `Inference-Header-Content-Length is ${body.byteLength + 10} but the body has only ${body.byteLength} bytes; it must be the size of the JSON header`,
        errorCode: 'SLUICE_REQUEST_BINARY_HEADER_INVALID',
      },
    });
  });

  it('a binary header length shorter than the JSON header → 400 saying which bytes were read as the header', async () => {
    const { body, headerLength } = binaryRequestBody({ inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', parameters: { binary_data_size: 16 } }] }, [new Uint8Array(16)]);
    const answer = await requestJson(`${t.inference}/v2/models/iris/infer`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(headerLength - 1) },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        error: expect.stringMatching(
          new RegExp(`^the JSON header \\(the first ${headerLength - 1} bytes of the body, as Inference-Header-Content-Length says\\) is not valid JSON: .+; Inference-Header-Content-Length must be the size of the JSON header in bytes$`),
        ) as unknown,
        errorCode: 'SLUICE_REQUEST_MALFORMED_JSON',
      },
    });
  });

  it.each([
    ['a parent-directory path', '../model-store/iris'],
    ['an absolute path', '/etc/passwd'],
    ['a file:// URL', 'file:///etc/passwd'],
    ['an encoded traversal', '%2e%2e%2firis'],
  ])('registering %s → 403 ForbiddenException, nothing loaded', async (_case, url) => {
    expect(await register(url)).toMatchObject({ status: 403, body: { code: 403, type: 'ForbiddenException', errorCode: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED' } });
  });

  it.each([
    ['a URL outside the allow-list', 'https://elsewhere.example.org/model.sluice'],
    ['a cloud metadata address, even when allow-listed', 'http://169.254.169.254/latest/meta-data/'],
    ['a link-local IPv6 address', 'http://[fe80::1]/model.sluice'],
    ['a metadata host name', 'http://metadata.google.internal/model.sluice'],
  ])('registering %s → 403 ForbiddenException', async (_case, url) => {
    expect(await register(url)).toMatchObject({ status: 403, body: { code: 403, type: 'ForbiddenException', errorCode: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED' } });
  });

  it.each(['http://%5B', 'https://'])('registering the malformed URL %s → 403 ForbiddenException, nothing made in the model store', async (url) => {
    expect(await register(url)).toMatchObject({
      status: 403,
      body: {
        code: 403,
        type: 'ForbiddenException',
        errorCode: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
        message: `url ${JSON.stringify(url)} is not a valid URL; only http(s) URLs that match the allowed URL patterns and do not point at link-local or cloud metadata addresses are accepted`,
      },
    });
    expect(await readdir(t.config.modelStore)).not.toContain('.downloads');
  });

  it('a binary BYTES element that is not UTF-8 → 400 before it is queued, so it never joins a batch', async () => {
    // One element of the binary extension's BYTES layout: a 4-byte little-endian length, then the bytes.
    const element = Buffer.from([2, 0, 0, 0, 0x61, 0xff]);
    const { body, headerLength } = binaryRequestBody(
      { inputs: [{ name: 'input', shape: [1], datatype: 'BYTES', parameters: { binary_data_size: element.byteLength } }] },
      [element],
    );
    const answer = await requestJson(`${t.inference}/v2/models/echo-bytes/infer`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(headerLength) },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        error: 'tensor input: BYTES element 0 is not valid UTF-8, which ONNX Runtime string tensors require; send the text encoded as UTF-8',
        errorCode: 'SLUICE_TENSOR_INVALID_VALUE',
      },
    });
    const [described] = (await requestJson(`${t.management}/models/echo-bytes`)).body as [{ recentBatchSizes: number[] }];
    expect(described.recentBatchSizes).toEqual([]);
  });

  it('a JSON BYTES element holding a lone surrogate → 400 naming the input and the element, as a binary one that is not UTF-8 is', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/echo-bytes/infer`, { method: 'POST', json: { inputs: [{ name: 'input', shape: [2], datatype: 'BYTES', data: ['ok', '\ud800'] }] } });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        error:
          'input `input`: BYTES element 1 holds the lone UTF-16 surrogate \\ud800, which is no character and has no UTF-8 encoding; send text only (a character beyond U+FFFF as both halves of its surrogate pair)',
        errorCode: 'SLUICE_TENSOR_INVALID_VALUE',
      },
    });
  });

  it('a BYTES element holding a NUL byte → 400', async () => {
    expect(await requestJson(`${t.inference}/v2/models/echo-bytes/infer`, { method: 'POST', json: { inputs: [{ name: 'input', shape: [1], datatype: 'BYTES', data: ['a\u0000b'] }] } })).toMatchObject({
      status: 400,
      body: {
        error: 'tensor input: BYTES element 0 contains a NUL byte, which ONNX Runtime string tensors cannot carry; send text without NUL bytes',
        errorCode: 'SLUICE_TENSOR_INVALID_VALUE',
      },
    });
  });

  it('an archive with path traversal → 400, nothing written outside the store', async () => {
    expect(await register('evil.sluice')).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_ARCHIVE_UNSAFE_PATH' } });
    expect(await readdir(join(t.dir, 'outside'))).toEqual([]);
    expect((await readdir(t.dir)).sort()).toEqual(['model-store', 'outside', 'snapshot.json']);
    expect(await readdir(join(t.dir, 'model-store', '.extracted')).catch(() => [])).toEqual([]);
  });

  it('registering under an empty name registers under the archive\'s own name, as TorchServe reads an empty parameter: iris is there already → 409', async () => {
    expect(await requestJson(`${t.management}/models?url=iris&model_name=`, { method: 'POST' })).toMatchObject({
      status: 409,
      body: { errorCode: 'SLUICE_MODEL_ALREADY_REGISTERED' },
    });
  });

  it.each([
    ['a 3000-character name', 'a'.repeat(3000), `"${'a'.repeat(57)}..." (3000 characters)`],
    ['a parent-directory name', '../evil', '"../evil"'],
    ['a name with a slash', 'a/b', '"a/b"'],
  ])('registering under %s → 400, nothing registered', async (_case, name, shown) => {
    expect(await requestJson(`${t.management}/models?url=iris&model_name=${encodeURIComponent(name)}`, { method: 'POST' })).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: `\`model_name\` must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$ (a letter or digit, then letters, digits, '_', '.' or '-'; at most 128 characters), got ${shown}`,
      },
    });
  });

  it('max_worker < min_worker → 400', async () => {
    expect(await requestJson(`${t.management}/models/iris?min_worker=2&max_worker=1&synchronous=true`, { method: 'PUT' })).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT' },
    });
  });

  it.each(['inference', 'management', 'metrics'] as const)('an unknown route on the %s port → 404 JSON', async (port) => {
    expect(await requestJson(`${t[port]}/no/such/route`)).toMatchObject({
      status: 404,
      body: { code: 404, errorCode: 'SLUICE_ROUTE_NOT_FOUND', message: expect.stringMatching(/^no route GET \/no\/such\/route; /) as unknown },
    });
  });

  it('still answers a good request correctly after the whole corpus', async () => {
    expect(await requestJson(`${t.inference}/ping`)).toMatchObject({ status: 200, body: { status: 'Healthy' } });
    expect(await post('/predictions/iris', JSON.stringify(SETOSA))).toMatchObject({ status: 200, body: { label: 'setosa' } });
    expect((await requestJson(`${t.management}/models`)).body).toEqual({
      models: [
        { modelName: 'echo-bytes', modelUrl: 'echo-bytes' },
        { modelName: 'half', modelUrl: 'half' },
        { modelName: 'iris', modelUrl: 'iris' },
        { modelName: 'mlp', modelUrl: 'mlp' },
        { modelName: 'no-zero-rows', modelUrl: 'no-zero-rows' },
        { modelName: 'zeros', modelUrl: 'zeros' },
      ],
    });
  });
});
