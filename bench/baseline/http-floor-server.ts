/**
 * The least an HTTP server can do per request on this machine: a Fastify route that reads the whole
 * body and answers 40 fixed bytes (the size of the CNN's ten FP32 logits), with no model and no
 * runtime. `npm run bench:ceiling` loads it with the CNN's requests to find the HTTP floor. Started as
 * `node dist/bench/baseline/http-floor-server.js`; prints `ready <port>` when listening.
 */
import Fastify from 'fastify';
import { serveUntilSignalled } from './serve-until-signalled.js';

const ANSWER = Buffer.alloc(40);

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => {
  done(null, body);
});
app.post('/predict', async (_request, reply) => reply.type('application/octet-stream').send(ANSWER));
await serveUntilSignalled(app);
