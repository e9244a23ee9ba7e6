/**
 * The baseline Sluice is measured against: what users write by hand today, a Fastify route that calls
 * onnxruntime-node once per request. Started by the benchmark as a separate process:
 * `node dist/bench/baseline/hand-rolled-server.js <model.onnx>`; prints `ready <port>` when listening.
 *
 * `POST /predict` takes the model's first input as JSON `{"data": [...]}` (answered with a JSON list) or
 * as raw little-endian FP32 bytes with `Content-Type: application/octet-stream` (answered with the raw
 * bytes of the first output). The body holds one or more instances, flattened; the batch size is the
 * element count divided by the size of one instance.
 */
import Fastify, { type FastifyReply } from 'fastify';
import * as ort from 'onnxruntime-node';
import { serveUntilSignalled } from './serve-until-signalled.js';

const modelPath = process.argv[2];
if (modelPath === undefined) throw new Error('usage: hand-rolled-server <model.onnx>');
const session = await ort.InferenceSession.create(modelPath);
const inputName = session.inputNames[0] ?? 'input';
const outputName = session.outputNames[0] ?? 'output';
const inputMetadata = session.inputMetadata[0];
// Everything after the batch dimension describes one instance: [64] for the MLP, [3, 32, 32] for the CNN.
const instanceShape = inputMetadata?.isTensor === true ? inputMetadata.shape.slice(1).map(Number) : [];
const instanceSize = instanceShape.reduce((product, dim) => product * dim, 1);

async function predict(data: Float32Array, reply: FastifyReply): Promise<Float32Array | undefined> {
  if (data.length === 0 || data.length % instanceSize !== 0) {
    await reply.code(400).send({ error: `expected a multiple of ${instanceSize} values, got ${data.length}` });
    return undefined;
  }
  const input = new ort.Tensor('float32', data, [data.length / instanceSize, ...instanceShape]);
  const result = await session.run({ [inputName]: input });
  return result[outputName]?.data as Float32Array;
}

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => {
  done(null, body);
});
app.post('/predict', async (request, reply) => {
  if (Buffer.isBuffer(request.body)) {
    const body = request.body;
    // A Float32Array view needs 4-byte alignment; copy only when the buffer does not have it.
    const data =
      body.byteOffset % 4 === 0
        ? new Float32Array(body.buffer, body.byteOffset, Math.floor(body.byteLength / 4))
        : new Float32Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength - (body.byteLength % 4)));
    const output = await predict(data, reply);
    if (output === undefined) return reply;
    return reply.type('application/octet-stream').send(Buffer.from(output.buffer, output.byteOffset, output.byteLength));
  }
  const { data } = request.body as { data: number[] };
  const output = await predict(Float32Array.from(data), reply);
  return output === undefined ? reply : Array.from(output);
});
await serveUntilSignalled(app);
