/**
 * The baseline Sluice is measured against: what users write by hand today, a Fastify route that calls
 * onnxruntime-node once per request. Started by the benchmark as a separate process:
 * `node dist/bench/baseline/hand-rolled-server.js <model.onnx>`; prints `ready <port>` when listening.
 */
import Fastify from 'fastify';
import * as ort from 'onnxruntime-node';

const modelPath = process.argv[2];
if (modelPath === undefined) throw new Error('usage: hand-rolled-server <model.onnx>');
const session = await ort.InferenceSession.create(modelPath);
const inputName = session.inputNames[0] ?? 'input';
const outputName = session.outputNames[0] ?? 'output';

const app = Fastify({ logger: false });
app.post('/predict', async (request) => {
  const { data } = request.body as { data: number[] };
  const input = new ort.Tensor('float32', Float32Array.from(data), [1, data.length]);
  const result = await session.run({ [inputName]: input });
  return Array.from(result[outputName]?.data as Float32Array);
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`ready ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
