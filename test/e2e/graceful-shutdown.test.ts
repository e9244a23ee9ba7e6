import { access } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { writePluginFolder } from '../support/plugin-folder.js';
import { GatedRuntime } from '../support/gated-runtime.js';
import { parseRawAnswer, parseRawAnswers, rawAnswerStatuses, rawExchangeWritingBodyLater } from '../support/raw-http.js';
import { untilQueued } from '../support/queue-wait.js';
import { requestJson, startTestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/** A plugin endpoint that never answers; it creates `reached` beside its module when a request reaches it. */
const NEVER_ANSWERS =
  "import { writeFileSync } from 'node:fs';\n" +
  "export default { register(c) { c.endpoint({ name: 'stuck', api: 'inference', method: 'GET', path: '/stuck', handle: () => { writeFileSync(new URL('./reached', import.meta.url), ''); return new Promise(() => {}); } }); } };\n";

/** Larger than any body a client writes before its send buffer fills, so an answer is ready while it is still sending. */
const BODY_BYTES = 4 * 1024 * 1024;

/** Resolves once `file` exists. */
async function untilExists(file: string): Promise<void> {
  while (!(await access(file).then(() => true, () => false))) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Resolves once the port at `baseUrl` refuses new connections: its listener is closed. */
async function untilListenerClosed(baseUrl: string): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = connect(Number(port), hostname);
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => {
        resolve(true);
      });
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A request to iris on each prediction route that answers through the lane (TorchServe) and through Fastify (KServe v1). */
const PIPELINED: [string, string][] = [
  ['/predictions/iris', JSON.stringify(SETOSA)],
  ['/v1/models/iris:predict', JSON.stringify({ instances: [SETOSA] })],
];

/**
 * Sends two requests to `path` pipelined on one connection to a server whose iris model is held, and stops
 * the server once the first runs and the second waits in the model's queue (one instance, batches of one).
 * The model is released as the stop begins (`releaseAtStop`), or only after it ended (its time ran out).
 */
async function stopWithTwoPipelined(
  path: string,
  body: string,
  options: { readonly releaseAtStop: boolean; readonly shutdownTimeoutMs?: number },
): Promise<{ answers: ReturnType<typeof parseRawAnswers>; stopped: { drained: boolean } }> {
  const runtime = new GatedRuntime((modelPath) => modelPath.includes('/iris/'));
  const t = await startTestServer({ runtime, demoModels: ['iris'], ...(options.shutdownTimeoutMs !== undefined ? { config: { shutdownTimeoutMs: options.shutdownTimeoutMs } } : {}) });
  runtime.hold();
  const request = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  let stopping: ReturnType<typeof t.server.stop> | undefined;
  const { text } = await rawExchangeWritingBodyLater(
    t.inference,
    request + request,
    async () => {
      await runtime.untilRunsStarted(1);
      await untilQueued(t, 'iris', 1);
      stopping = t.server.stop();
      await untilListenerClosed(t.inference);
      if (options.releaseAtStop) runtime.release();
    },
    '',
    0,
  );
  const stopped = await (stopping ?? Promise.reject(new Error('the server was never stopped')));
  runtime.release();
  await t.close();
  return { answers: parseRawAnswers(text), stopped };
}

describe('graceful shutdown', () => {
  it('finishes running and queued requests, refuses new ones, then stops', async () => {
    const runtime = new GatedRuntime((path) => path.includes('/iris/'));
    const t = await startTestServer({ runtime, demoModels: ['iris'] });
    const predict = (): ReturnType<typeof requestJson> => requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA });
    runtime.hold();
    const running = predict();
    await runtime.untilRunsStarted(1);
    const queued = predict();
    await untilQueued(t, 'iris', 1);
    const stopping = t.server.stop();
    await expect(predict()).rejects.toThrow(); // the listener is closed: new connections are refused
    runtime.release();
    expect((await running).status).toBe(200);
    expect(await queued).toMatchObject({ status: 200, body: { label: 'setosa' } });
    expect(await stopping).toEqual({ drained: true });
    await t.close();
  });

  it('gives up after shutdownTimeoutMs: waiting requests get 503, and stop still returns', async () => {
    const runtime = new GatedRuntime((path) => path.includes('/iris/'));
    const t = await startTestServer({ runtime, demoModels: ['iris'], config: { shutdownTimeoutMs: 100 } });
    const predict = (): ReturnType<typeof requestJson> => requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA });
    runtime.hold();
    const running = predict().catch((error: unknown) => error);
    await runtime.untilRunsStarted(1);
    const queued = predict();
    await untilQueued(t, 'iris', 1);
    expect(await t.server.stop()).toEqual({ drained: false });
    expect(await queued).toMatchObject({ status: 503, body: { errorCode: 'SLUICE_SERVER_SHUTTING_DOWN' } });
    // Still running at the bound: answered before its connection is dropped.
    expect(await running).toMatchObject({ status: 503, body: { errorCode: 'SLUICE_SERVER_SHUTTING_DOWN' } });
    runtime.release();
    await t.close();
  });

  it('drops a connection that never sent a request instead of waiting for it', async () => {
    const t = await startTestServer({ demoModels: ['iris'] });
    const { hostname, port } = new URL(t.inference);
    const unused = connect(Number(port), hostname);
    await new Promise((resolve) => unused.once('connect', resolve));
    const dropped = new Promise((resolve) => unused.once('close', resolve));
    expect(await t.server.stop()).toEqual({ drained: true });
    await dropped;
    await t.close();
  });

  it('answers 503 to a plugin endpoint that never answers once shutdownTimeoutMs has passed, and stops', async () => {
    const t = await startTestServer({
      demoModels: [],
      // Relative to the server's folder, which `prepare` fills.
      config: { shutdownTimeoutMs: 200, plugins: [{ path: './stuck' }] },
      prepare: async (_store, dir) => {
        await writePluginFolder(join(dir, 'stuck'), { name: 'stuck', provides: [{ point: 'endpoint', name: 'stuck' }] }, NEVER_ANSWERS);
      },
    });
    const answer = requestJson(`${t.inference}/stuck`);
    await untilExists(join(t.dir, 'stuck', 'reached'));
    // The models had nothing to drain: only the plugin endpoint was cut off.
    expect(await t.server.stop()).toEqual({ drained: true });
    expect(await answer).toMatchObject({ status: 503, body: { errorCode: 'SLUICE_SERVER_SHUTTING_DOWN' } });
    await t.close();
  });
});

/**
 * Fastify answers a request routed while its port closes with a 503 of its own. Sluice keeps every request
 * from getting it: the stop drops each connection with no request in progress, a partly sent head
 * included, and answers the requests in progress with `connection: close`, after which Node closes the
 * connection. A request sent behind one of them is not run and not answered: the closed connection tells
 * its client to send it again.
 */
describe('requests that arrive while the port closes', () => {
  it('a connection whose head was still arriving when the stop began is closed without an answer', async () => {
    const t = await startTestServer({ demoModels: ['iris'], config: { maxRequestSizeBytes: 8 * 1024 * 1024 } });
    let stopping: ReturnType<typeof t.server.stop> | undefined;
    const { text } = await rawExchangeWritingBodyLater(
      t.inference,
      'POST /predictions/iris HTTP/1.1\r\nHost: x\r\n',
      async () => {
        // Time for the server to read the first bytes.
        await new Promise((resolve) => setTimeout(resolve, 50));
        stopping = t.server.stop();
        await untilListenerClosed(t.inference);
      },
      `Content-Type: application/json\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`,
      BODY_BYTES,
    );
    expect(rawAnswerStatuses(text)).toEqual([]);
    expect(await stopping).toEqual({ drained: true });
    await t.close();
  });

  it.each(['/predictions/iris', '/v1/models/iris:predict'])(
    'a request for %s sent behind one in progress goes unanswered, and the one in progress gets its answer with connection: close',
    async (path) => {
      const runtime = new GatedRuntime((modelPath) => modelPath.includes('/iris/'));
      const t = await startTestServer({ runtime, demoModels: ['iris'], config: { maxRequestSizeBytes: 8 * 1024 * 1024 } });
      runtime.hold();
      const first = JSON.stringify(SETOSA);
      let stopping: ReturnType<typeof t.server.stop> | undefined;
      const { text } = await rawExchangeWritingBodyLater(
        t.inference,
        `POST /predictions/iris HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${first.length}\r\n\r\n${first}`,
        async () => {
          await runtime.untilRunsStarted(1);
          stopping = t.server.stop();
          await untilListenerClosed(t.inference);
          // Once the second request has gone out.
          setTimeout(() => {
            runtime.release();
          }, 100);
        },
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`,
        BODY_BYTES,
      );
      const answer = parseRawAnswer(text);
      expect({ statuses: rawAnswerStatuses(text), connection: answer.headers['connection'] }).toEqual({ statuses: [200], connection: 'close' });
      expect(JSON.parse(answer.body)).toMatchObject({ label: 'setosa' });
      expect(await stopping).toEqual({ drained: true });
      await t.close();
    },
  );

  it.each(PIPELINED)('a request to %s pipelined behind another before the stop began gets its answer too, the last one with connection: close', async (path, body) => {
    const { answers, stopped } = await stopWithTwoPipelined(path, body, { releaseAtStop: true });
    expect(answers.map(({ status, headers, body: answered }) => [status, headers['connection'], answered.includes('setosa')])).toEqual([
      [200, 'keep-alive', true],
      [200, 'close', true],
    ]);
    expect(stopped).toEqual({ drained: true });
  });

  it.each(PIPELINED)('two requests to %s pipelined before the stop, both waiting when shutdownTimeoutMs runs out, each get their 503', async (path, body) => {
    const { answers, stopped } = await stopWithTwoPipelined(path, body, { releaseAtStop: false, shutdownTimeoutMs: 100 });
    expect(answers.map(({ status, headers, body: answered }) => [status, headers['connection'], answered.includes('SLUICE_SERVER_SHUTTING_DOWN')])).toEqual([
      [503, 'keep-alive', true],
      [503, 'close', true],
    ]);
    expect(stopped).toEqual({ drained: false });
  });

  it('closes a connection once its last pipelined request is answered, when a later one was answered before the stop began', async () => {
    const runtime = new GatedRuntime((modelPath) => modelPath.includes('/iris/'));
    const t = await startTestServer({ runtime, demoModels: ['iris'] });
    runtime.hold();
    const body = JSON.stringify(SETOSA);
    const post = (path: string): string => `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    let stopping: ReturnType<typeof t.server.stop> | undefined;
    const { text } = await rawExchangeWritingBodyLater(
      t.inference,
      // The second names no model, so its 404 is ready while the first still runs.
      post('/predictions/iris') + post('/predictions/no-such-model'),
      async () => {
        await runtime.untilRunsStarted(1);
        await new Promise((resolve) => setTimeout(resolve, 100));
        stopping = t.server.stop();
        await untilListenerClosed(t.inference);
        runtime.release();
      },
      '',
      0,
    );
    expect(rawAnswerStatuses(text)).toEqual([200, 404]);
    expect(await stopping).toEqual({ drained: true });
    await t.close();
  });
});
