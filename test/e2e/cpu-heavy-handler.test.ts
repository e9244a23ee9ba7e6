import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { classifierHandler } from '../../plugins/builtin-handlers/index.js';
import { SluiceError } from '../../src/sdk/errors/index.js';
import { threadProbeHandler, type ProbeBody } from '../support/handlers/thread-probe-handler.js';
import { TYPESCRIPT_THREAD_ARGV } from '../support/handlers/typescript-threads.js';
import { trace } from '@opentelemetry/api';
import { memoryLogger, requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/**
 * A CPU-heavy handler registered into a real server: its stages run on a handler thread, so the event
 * loop keeps answering other requests while it works.
 */
describe('CPU-heavy handler', () => {
  let t: TestServer;
  const lines: string[] = [];
  const predict = (body: ProbeBody): ReturnType<typeof requestJson> => requestJson(`${t.inference}/predictions/probe`, { method: 'POST', json: body });

  /** Resolves once the server has logged `msg`: the handler thread has reached that point. */
  const logged = async (msg: string): Promise<Record<string, unknown>> => {
    for (;;) {
      const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === msg);
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      logger: memoryLogger(lines),
      handlers: [threadProbeHandler],
      handlerPool: { threads: 1, execArgv: TYPESCRIPT_THREAD_ARGV },
      prepare: async (store) => {
        // The iris model served through the probe handler.
        await cp(join(store, 'iris'), join(store, 'probe'), { recursive: true });
        const manifest = await readFile(join(store, 'probe', 'model.yaml'), 'utf8');
        await writeFile(join(store, 'probe', 'model.yaml'), manifest.replace('name: iris', 'name: probe').replace('handler: classifier', 'handler: thread-probe'));
        // The same with a short response timeout, for a handler that never finishes.
        await cp(join(store, 'probe'), join(store, 'hasty'), { recursive: true });
        await writeFile(join(store, 'hasty', 'model.yaml'), `${manifest.replace('name: iris', 'name: hasty').replace('handler: classifier', 'handler: thread-probe')}responseTimeoutMs: 500\n`);
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs preprocess and postprocess on a worker thread', async () => {
    const answer = await predict({ features: SETOSA });
    expect(answer).toMatchObject({ status: 200, body: { outputs: ['probabilities', 'label'] } });
    const body = answer.body as { preprocessThread: number; postprocessThread: number };
    expect(body.preprocessThread).not.toBe(threadId);
    expect(body.postprocessThread).not.toBe(threadId);
  });

  it('answers /ping sent while a heavy request is being preprocessed before that request completes', async () => {
    const release = join(t.dir, 'release');
    const completed: string[] = [];
    // Busy until released; without the thread it would block the event loop for all of its rounds.
    const heavy = predict({ features: SETOSA, log: 'holding', holdUntil: release, maxRounds: 50_000 }).then((answer) => {
      completed.push('heavy');
      return answer;
    });
    await logged('holding');
    const ping = await requestJson(`${t.inference}/ping`);
    completed.push('ping');
    await writeFile(release, '');
    expect(ping).toMatchObject({ status: 200, body: { status: 'Healthy' } });
    expect(await heavy).toMatchObject({ status: 200 });
    expect(completed).toEqual(['ping', 'heavy']);
  }, 60_000);

  it('writes the handler’s log lines to the server log with the version’s fields', async () => {
    await predict({ features: SETOSA, log: 'decoding' });
    expect(await logged('decoding')).toMatchObject({ level: 'info', model: 'probe', version: '1.0', thread: expect.any(Number) as unknown });
  });

  it('answers an error thrown on the thread with SLUICE_HANDLER_FAILED naming the handler and the stage', async () => {
    expect(await predict({ fail: { stage: 'preprocess', kind: 'plain' } })).toMatchObject({
      status: 500,
      body: { errorCode: 'SLUICE_HANDLER_FAILED', message: 'handler `thread-probe` of model `probe` failed in preprocess: probe broke in preprocess' },
    });
    expect(await predict({ features: SETOSA, fail: { stage: 'postprocess', kind: 'plain' } })).toMatchObject({
      status: 500,
      body: { errorCode: 'SLUICE_HANDLER_FAILED', message: 'handler `thread-probe` of model `probe` failed in postprocess: probe broke in postprocess' },
    });
  });

  it('keeps the code and message of a SluiceError thrown on the thread', async () => {
    expect(await predict({ features: SETOSA, fail: { stage: 'postprocess', kind: 'sluice' } })).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_REQUEST_INVALID', message: 'probe refused the request in postprocess' },
    });
  });

  it('answers a handler stuck past the response timeout with 504, and serves the next request on a fresh thread', async () => {
    const stuck = await requestJson(`${t.inference}/predictions/hasty`, { method: 'POST', json: { features: SETOSA, holdUntil: join(t.dir, 'never') } });
    expect(stuck).toMatchObject({
      status: 504,
      body: {
        errorCode: 'SLUICE_RESPONSE_TIMEOUT',
        message: expect.stringMatching(
          /^model `hasty` version `1\.0` did not answer in time: its response timeout passed while handler `thread-probe` ran preprocess on a handler thread \(\d+ ms\), and the thread was stopped; raise the timeout or make the handler finish sooner$/,
        ) as unknown,
      },
    });
    // The server has one handler thread: this answer needs the stuck one to have been replaced.
    expect(await predict({ features: SETOSA })).toMatchObject({ status: 200, body: { outputs: ['probabilities', 'label'] } });
  }, 30_000);

  it('leaves ordinary handlers on the event loop', async () => {
    expect(await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200, body: { label: 'setosa' } });
    // The plugin's handler itself (behind the wrapper naming the plugin in errors), not a thread stand-in.
    const iris = t.server.core.registry.resolve('iris').handler;
    expect(iris.name).toBe(classifierHandler.name);
    expect(iris.cpuHeavy).toBeUndefined();
    expect(t.server.core.registry.resolve('probe').handler).not.toBe(threadProbeHandler);
  });
});

describe('handler threads at shutdown', () => {
  it('stop with the server', async () => {
    const t = await startTestServer({ demoModels: [], handlers: [threadProbeHandler], handlerPool: { threads: 1, execArgv: TYPESCRIPT_THREAD_ARGV } });
    const pool = t.server.core.handlerPool;
    const context = { model: { name: 'probe', version: '1', inputs: [], outputs: [] }, config: {}, logger: t.server.core.logger, tracer: trace.getTracer('test'), signal: new AbortController().signal, sendPartial: () => Promise.resolve() };
    await pool.run(threadProbeHandler, 'preprocess', [{ body: {}, contentType: 'application/json' }], context);
    await t.close();
    await expect(pool.run(threadProbeHandler, 'preprocess', [{ body: {}, contentType: 'application/json' }], context)).rejects.toThrow(
      new SluiceError('SLUICE_SERVER_SHUTTING_DOWN', 'the server is shutting down and its handler threads are stopped; retry on another replica'),
    );
  });
});
