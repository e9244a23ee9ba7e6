import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import type { LogFields, Logger } from '../../../../src/sdk/logging/logger.js';
import type { Handler, HandlerContext, HandlerRequest, ModelDescription, PreparedRequest } from '../../../../src/sdk/index.js';
import { BoundedHandlerContext, HandlerPool } from '../../../../src/serving/handler-pool/index.js';
import { RequestBudget, signalCancellation } from '../../../../src/budget/request-budget.js';
import { lookedAtCancellation } from '../../../support/cancellations.js';
import { UNLOAD_GRACE_MS } from '../../../../src/serving/handler-pool/thread-call-errors.js';
import { threadProbeHandler, type ProbeBody, type ProbeResponse, type ProbeState } from '../../../support/handlers/thread-probe-handler.js';
import { TYPESCRIPT_THREAD_ARGV } from '../../../support/handlers/typescript-threads.js';
import { trace } from '@opentelemetry/api';
import { makeTempDir } from '../../../support/temp-dir.js';

// Each handler thread compiles the TypeScript handler it loads, which takes seconds on a loaded machine:
// every test and hook gets the time a thread start needs, not jest's 5 s default.
jest.setTimeout(30_000);

interface Line {
  readonly level: string;
  readonly message: string;
  readonly fields?: LogFields;
}

function recordingLogger(lines: Line[], bound: LogFields = {}): Logger {
  const write = (level: string) => (message: string, fields?: LogFields) => {
    lines.push({ level, message, fields: { ...bound, ...fields } });
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), child: (fields) => recordingLogger(lines, { ...bound, ...fields }) };
}

const iris: ModelDescription = { name: 'iris', version: '1', inputs: [{ name: 'features', datatype: 'FP32', shape: [-1, 4] }], outputs: [] };

function context(options: { lines?: Line[]; signal?: AbortSignal } = {}): HandlerContext {
  return { model: iris, config: {}, logger: recordingLogger(options.lines ?? []), tracer: trace.getTracer('test'), signal: options.signal ?? new AbortController().signal, sendPartial: () => Promise.resolve() };
}

const probe = (body: ProbeBody): HandlerRequest => ({ body, contentType: 'application/json' });

const pools: HandlerPool[] = [];
function newPool(threads = 1): HandlerPool {
  const pool = new HandlerPool({ threads, execArgv: TYPESCRIPT_THREAD_ARGV }, recordingLogger([]));
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close({ force: true })));
});

// Calls that leave the pool as it was share one, so that threads start (and import the sources) once.
let shared: HandlerPool;
beforeAll(() => {
  shared = new HandlerPool({ threads: 3, execArgv: TYPESCRIPT_THREAD_ARGV }, recordingLogger([]));
});
afterAll(async () => {
  await shared.close();
});

/** Resolves once `lines` holds a line with `message`: the thread has reached that point of the handler. */
async function lineWritten(lines: readonly Line[], message: string): Promise<void> {
  while (!lines.some((line) => line.message === message)) await new Promise((resolve) => setTimeout(resolve, 5));
}

const SHUTTING_DOWN = new SluiceError('SLUICE_SERVER_SHUTTING_DOWN', 'the server is shutting down and its handler threads are stopped; retry on another replica');

async function preprocess(pool: HandlerPool, body: ProbeBody, ctx = context()): Promise<PreparedRequest<ProbeState>> {
  const [prepared] = await pool.route(threadProbeHandler).preprocess([probe(body)], ctx);
  return prepared!;
}

describe('HandlerPool', () => {
  it('runs preprocess on another thread', async () => {
    const prepared = await preprocess(shared, {});
    expect(prepared.state?.preprocessThread).not.toBe(threadId);
  });

  it('runs postprocess on another thread and returns its responses', async () => {
    const results = [{ request: probe({}), outputs: [{ name: 'label', datatype: 'INT64' as const, shape: [1], data: new BigInt64Array([1n]) }], state: { preprocessThread: 7, abortedInPreprocess: false } }];
    const [response] = (await shared.route(threadProbeHandler).postprocess(results, context())) as ProbeResponse[];
    expect(response).toEqual({ preprocessThread: 7, abortedInPreprocess: false, postprocessThread: expect.any(Number) as unknown, outputs: ['label'] });
    expect(response!.postprocessThread).not.toBe(threadId);
  });

  it('brings the prepared tensors back intact', async () => {
    const prepared = await preprocess(shared, { features: [5.1, 3.5, 1.4, 0.2] });
    expect(prepared.inputs).toEqual([{ name: 'features', datatype: 'FP32', shape: [1, 4], data: new Float32Array([5.1, 3.5, 1.4, 0.2]) }]);
  });

  it('starts no thread before the first call', async () => {
    const pool = newPool();
    expect(pool.started).toBe(false);
    await preprocess(pool, {});
    expect(pool.started).toBe(true);
  });

  it('spreads one model’s concurrent calls over all its threads but one', async () => {
    const states = await Promise.all([1, 2, 3, 4, 5, 6].map(() => preprocess(shared, {})));
    expect(new Set(states.map((p) => p.state?.preprocessThread)).size).toBe(2);
  });

  it('keeps a thread for other models while one model’s calls hold all the others, and runs that model’s further calls in turn', async () => {
    const temp = await makeTempDir();
    const release = join(temp.dir, 'release');
    const pool = newPool(2);
    const lines: Line[] = [];
    const holding = preprocess(pool, { log: 'holding', holdUntil: release }, context({ lines }));
    await lineWritten(lines, 'holding');
    let queuedDone = false;
    const queued = preprocess(pool, {}).then((prepared) => {
      queuedDone = true;
      return prepared;
    });
    const other = await preprocess(pool, {}, { ...context(), model: { ...iris, name: 'other' } });
    expect(other.state?.preprocessThread).not.toBe(threadId);
    expect(queuedDone).toBe(false);
    await writeFile(release, '');
    await holding;
    expect((await queued).state?.preprocessThread).not.toBe(threadId);
    await temp.cleanup();
  }, 30_000);

  it('counts versions of one model apart: each has its own share', async () => {
    const temp = await makeTempDir();
    const release = join(temp.dir, 'release');
    const pool = newPool(2);
    const lines: Line[] = [];
    const holding = preprocess(pool, { log: 'holding', holdUntil: release }, context({ lines }));
    await lineWritten(lines, 'holding');
    const v2 = await preprocess(pool, {}, { ...context(), model: { ...iris, version: '2' } });
    expect(v2.state?.preprocessThread).not.toBe(threadId);
    await writeFile(release, '');
    await holding;
    await temp.cleanup();
  }, 30_000);

  it('stops a call still running a second after its version is unloaded with SLUICE_MODEL_UNLOADING, and serves the next on a fresh thread', async () => {
    const temp = await makeTempDir();
    const pool = newPool();
    const first = await preprocess(pool, {});
    const unload = new AbortController();
    const lines: Line[] = [];
    const stuck = preprocess(pool, { log: 'holding', holdUntil: join(temp.dir, 'never') }, context({ lines, signal: unload.signal }));
    await lineWritten(lines, 'holding');
    const unloadedAt = performance.now();
    unload.abort();
    await expect(stuck).rejects.toThrow(
      new SluiceError(
        'SLUICE_MODEL_UNLOADING',
        "model `iris` version `1` was unloaded while handler `thread-probe` ran preprocess on a handler thread, which had not returned 1000 ms later, so the thread was stopped; a handler that watches its context's signal can return sooner",
      ),
    );
    expect(performance.now() - unloadedAt).toBeGreaterThanOrEqual(UNLOAD_GRACE_MS - 1);
    const next = await preprocess(pool, {});
    expect(next.state?.preprocessThread).not.toBe(first.state?.preprocessThread);
    await temp.cleanup();
  }, 30_000);

  it('answers a plain error thrown on the thread with an Error of the same name and message', async () => {
    const error = await preprocess(shared, { fail: { stage: 'preprocess', kind: 'plain' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SluiceError);
    expect(error).toMatchObject({ name: 'TypeError', message: 'probe broke in preprocess' });
  });

  it('keeps the code, message and details of a SluiceError thrown on the thread', async () => {
    const error = await preprocess(shared, { fail: { stage: 'preprocess', kind: 'sluice' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SluiceError);
    expect(error).toMatchObject({ code: 'SLUICE_REQUEST_INVALID', message: 'probe refused the request in preprocess', details: { stage: 'preprocess' } });
  });

  it('answers an error thrown in postprocess the same way', async () => {
    const results = [{ request: probe({ fail: { stage: 'postprocess', kind: 'plain' } }), outputs: [], state: undefined }];
    await expect(shared.route(threadProbeHandler).postprocess(results, context())).rejects.toMatchObject({ name: 'TypeError', message: 'probe broke in postprocess' });
  });

  it('answers an answer that cannot cross threads with a DataCloneError', async () => {
    const results = [{ request: probe({ uncloneable: true }), outputs: [], state: undefined }];
    await expect(shared.route(threadProbeHandler).postprocess(results, context())).rejects.toMatchObject({
      name: 'DataCloneError',
      message: 'its answer cannot leave the worker thread: () => undefined could not be cloned.',
    });
  });

  it('forwards the handler’s log lines to the caller’s logger', async () => {
    const lines: Line[] = [];
    const prepared = await preprocess(shared, { log: 'decoding' }, context({ lines }));
    expect(lines).toEqual([{ level: 'info', message: 'decoding', fields: { thread: prepared.state?.preprocessThread } }]);
  });

  it('does not run a call whose version was unloaded before it', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(preprocess(shared, {}, context({ signal: controller.signal }))).rejects.toThrow(
      new SluiceError('SLUICE_MODEL_UNLOADING', "model `iris` version `1` is being unloaded; the request's preprocess had not started on a handler thread and was not run"),
    );
  });

  it('aborts the signal on the thread when the caller’s signal aborts during the call', async () => {
    const controller = new AbortController();
    const lines: Line[] = [];
    const running = preprocess(shared, { log: 'waiting', untilAborted: true }, context({ lines, signal: controller.signal }));
    await lineWritten(lines, 'waiting');
    controller.abort();
    expect((await running).state?.abortedInPreprocess).toBe(true);
  });

  it('refuses an export that is not the handler of that name', async () => {
    const impostor: Handler = { ...threadProbeHandler, name: 'impostor' };
    const run = shared.route(impostor).preprocess([probe({})], context());
    await expect(run).rejects.toThrow(`the export \`threadProbeHandler\` of ${threadProbeHandler.cpuHeavy!.module} is handler \`thread-probe\`, not \`impostor\``);
  });

  it('leaves a handler that is not CPU-heavy as it is', () => {
    const plain: Handler = { name: 'plain', preprocess: () => Promise.resolve([]), postprocess: () => Promise.resolve([]) };
    expect(newPool().route(plain)).toBe(plain);
  });

  it('closes idempotently, and refuses calls once closed', async () => {
    const pool = newPool();
    await preprocess(pool, {});
    await pool.close();
    await pool.close();
    await expect(preprocess(pool, {})).rejects.toThrow(SHUTTING_DOWN);
  });

  it('lets a running call finish when it closes', async () => {
    const temp = await makeTempDir();
    const release = join(temp.dir, 'release');
    const pool = newPool();
    const lines: Line[] = [];
    const running = preprocess(pool, { log: 'holding', holdUntil: release }, context({ lines }));
    await lineWritten(lines, 'holding');
    const closed = pool.close().then(() => 'closed');
    await writeFile(release, '');
    const prepared = await running;
    expect(prepared.state?.preprocessThread).not.toBe(threadId);
    expect(await closed).toBe('closed');
    await temp.cleanup();
  });

  it('cuts a running call off with SLUICE_SERVER_SHUTTING_DOWN when it closes by force', async () => {
    const temp = await makeTempDir();
    const pool = newPool();
    const lines: Line[] = [];
    const running = preprocess(pool, { log: 'holding', holdUntil: join(temp.dir, 'never') }, context({ lines }));
    await lineWritten(lines, 'holding');
    await pool.close({ force: true });
    await expect(running).rejects.toThrow(SHUTTING_DOWN);
    await temp.cleanup();
  });

  it('answers a call whose thread ends with an Error saying so, and keeps serving', async () => {
    const pool = newPool();
    await expect(preprocess(pool, { exitThread: true })).rejects.toMatchObject({ name: 'Error', message: 'its worker thread failed: worker exited with code: 3' });
    expect((await preprocess(pool, {})).state?.preprocessThread).not.toBe(threadId);
  });

  it('stops a call still running at its deadline with SLUICE_RESPONSE_TIMEOUT, and serves the next on a fresh thread', async () => {
    const temp = await makeTempDir();
    const pool = newPool();
    const first = await preprocess(pool, {});
    const stuck = preprocess(pool, { holdUntil: join(temp.dir, 'never') }, new BoundedHandlerContext(context(), RequestBudget.of({ deadlineMs: 300 })));
    await expect(stuck).rejects.toThrow(SluiceError);
    await expect(stuck).rejects.toMatchObject({
      code: 'SLUICE_RESPONSE_TIMEOUT',
      message: expect.stringMatching(
        /^model `iris` version `1` did not answer in time: its response timeout passed while handler `thread-probe` ran preprocess on a handler thread \(\d+ ms\), and the thread was stopped; raise the timeout or make the handler finish sooner$/,
      ) as unknown,
    });
    const next = await preprocess(pool, {});
    expect(next.state?.preprocessThread).not.toBe(first.state?.preprocessThread);
    await temp.cleanup();
  }, 30_000);

  it('takes a call off the queue when its deadline passes while every thread is busy, saying it was not run', async () => {
    const temp = await makeTempDir();
    const release = join(temp.dir, 'release');
    const pool = newPool();
    const lines: Line[] = [];
    const busy = preprocess(pool, { log: 'holding', holdUntil: release }, context({ lines }));
    await lineWritten(lines, 'holding');
    const waiting = preprocess(pool, {}, new BoundedHandlerContext(context(), RequestBudget.of({ deadlineMs: 100 })));
    await expect(waiting).rejects.toMatchObject({
      code: 'SLUICE_RESPONSE_TIMEOUT',
      message: expect.stringMatching(
        /^model `iris` version `1` did not answer in time: its response timeout passed while its preprocess waited for a handler thread \(\d+ ms\), held by the model's earlier calls; it was not run; raise the timeout or send fewer long requests at once$/,
      ) as unknown,
    });
    await writeFile(release, '');
    expect((await busy).state?.preprocessThread).not.toBe(threadId);
    await temp.cleanup();
  }, 30_000);

  /** A pool of one thread held by a call that runs until `release` is called. */
  async function heldPool(): Promise<{ pool: HandlerPool; release: () => Promise<void> }> {
    const temp = await makeTempDir();
    const file = join(temp.dir, 'release');
    const pool = newPool();
    const lines: Line[] = [];
    const busy = preprocess(pool, { log: 'holding', holdUntil: file }, context({ lines }));
    await lineWritten(lines, 'holding');
    return {
      pool,
      release: async () => {
        await writeFile(file, '');
        // The call that held the thread ends as usual, whatever happened to those that waited.
        expect((await busy).state?.preprocessThread).not.toBe(threadId);
        await temp.cleanup();
      },
    };
  }

  it('takes a waiting call out at once when its version is unloaded, saying it was not run', async () => {
    const { pool, release } = await heldPool();
    const unload = new AbortController();
    const waiting = preprocess(pool, {}, context({ signal: unload.signal }));
    const unloadedAt = performance.now();
    unload.abort();
    await expect(waiting).rejects.toThrow(
      new SluiceError('SLUICE_MODEL_UNLOADING', "model `iris` version `1` is being unloaded; the request's preprocess had not started on a handler thread and was not run"),
    );
    expect(performance.now() - unloadedAt).toBeLessThan(UNLOAD_GRACE_MS);
    await release();
  }, 30_000);

  it('takes a waiting call out when its own timeout passes', async () => {
    const { pool, release } = await heldPool();
    const waiting = preprocess(pool, {}, new BoundedHandlerContext(context(), RequestBudget.of({ deadlineMs: 60_000, timeoutMs: 100 }), { ownTimeoutEndsWait: true }));
    await expect(waiting).rejects.toMatchObject({
      code: 'SLUICE_RESPONSE_TIMEOUT',
      message: expect.stringMatching(
        /^model `iris` version `1` did not answer in time: its own timeout \(x-sluice-timeout-ms\) passed while its preprocess waited for a handler thread \(\d+ ms\); it was not run; raise the timeout or retry later$/,
      ) as unknown,
    });
    await release();
  }, 30_000);

  it('does not stop a running call for its own timeout: that bounds the wait for a thread only', async () => {
    const prepared = await preprocess(shared, { features: [1, 2, 3, 4] }, new BoundedHandlerContext(context(), RequestBudget.of({ deadlineMs: 60_000, timeoutMs: 0 }), { ownTimeoutEndsWait: true }));
    expect(prepared.inputs[0]?.data).toEqual(new Float32Array([1, 2, 3, 4]));
  });

  it('drops a waiting call whose client left when its turn comes, without running it', async () => {
    const { pool, release } = await heldPool();
    let gone = false;
    const lines: Line[] = [];
    const waiting = preprocess(pool, { log: 'ran' }, new BoundedHandlerContext(context({ lines }), RequestBudget.of({ deadlineMs: 60_000, cancellation: lookedAtCancellation(() => gone) })));
    const dropped = expect(waiting).rejects.toThrow(new SluiceError('SLUICE_REQUEST_INVALID', "the client went away while the request's preprocess waited for a handler thread; it was not run"));
    gone = true;
    await release();
    await dropped;
    expect(lines.map((line) => line.message)).toEqual([]);
  }, 30_000);

  it('takes a waiting call out at once when its client’s signal aborts', async () => {
    const { pool, release } = await heldPool();
    const client = new AbortController();
    const waiting = preprocess(pool, {}, new BoundedHandlerContext(context(), RequestBudget.of({ deadlineMs: 60_000, cancellation: signalCancellation(client.signal) })));
    client.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'SLUICE_REQUEST_INVALID' });
    await release();
  }, 30_000);

  it('refuses a preprocess with SLUICE_QUEUE_FULL once its version has jobQueueSize calls waiting for a thread', async () => {
    const { pool, release } = await heldPool();
    const bounded = (): HandlerContext => new BoundedHandlerContext(context(), RequestBudget.of({ deadlineMs: 60_000 }), { waitLimit: 1 });
    const waiting = preprocess(pool, {}, bounded());
    await expect(preprocess(pool, {}, bounded())).rejects.toThrow(
      new SluiceError('SLUICE_QUEUE_FULL', 'model `iris` version `1` already has 1 requests waiting for a handler thread (its jobQueueSize); retry after 1 s or raise jobQueueSize', {
        retryAfterSeconds: 1,
        queueSize: 1,
      }),
    );
    await release();
    expect((await waiting).state?.preprocessThread).not.toBe(threadId);
  }, 30_000);

  it('does not count waiting calls whose client left against jobQueueSize', async () => {
    const { pool, release } = await heldPool();
    let gone = false;
    const left = preprocess(pool, {}, new BoundedHandlerContext(context(), RequestBudget.of({ deadlineMs: 60_000, cancellation: lookedAtCancellation(() => gone) }), { waitLimit: 1 }));
    gone = true;
    const waiting = preprocess(pool, {}, new BoundedHandlerContext(context(), RequestBudget.of({ deadlineMs: 60_000 }), { waitLimit: 1 }));
    await expect(left).rejects.toMatchObject({ code: 'SLUICE_REQUEST_INVALID' });
    await release();
    expect((await waiting).state?.preprocessThread).not.toBe(threadId);
  }, 30_000);

  it('closes once a call stopped at its deadline during the close has ended', async () => {
    const temp = await makeTempDir();
    const pool = newPool();
    await preprocess(pool, {});
    const lines: Line[] = [];
    const stuck = preprocess(pool, { log: 'holding', holdUntil: join(temp.dir, 'never') }, new BoundedHandlerContext(context({ lines }), RequestBudget.of({ deadlineMs: 1_000 })));
    await lineWritten(lines, 'holding');
    const closed = pool.close().then(() => 'closed');
    await expect(stuck).rejects.toMatchObject({ code: 'SLUICE_RESPONSE_TIMEOUT', message: expect.stringContaining('and the thread was stopped') as unknown });
    expect(await closed).toBe('closed');
    await temp.cleanup();
  }, 30_000);

  it('lets a call that ends before its deadline answer as usual', async () => {
    const prepared = await preprocess(shared, { features: [1, 2, 3, 4] }, new BoundedHandlerContext(context(), RequestBudget.of({ deadlineMs: 60_000 })));
    expect(prepared.inputs[0]?.data).toEqual(new Float32Array([1, 2, 3, 4]));
  });

  it('refuses a request body nested too deeply to cross threads with SLUICE_REQUEST_INVALID, starting no thread', async () => {
    const pool = newPool();
    const deep = JSON.parse(`${'['.repeat(5000)}1${']'.repeat(5000)}`) as ProbeBody;
    await expect(preprocess(pool, deep)).rejects.toThrow(
      new SluiceError('SLUICE_REQUEST_INVALID', "the request body nests more than 256 levels of JSON arrays or objects, more than the model's handler takes; send flatter JSON"),
    );
    expect(pool.started).toBe(false);
  });

  it('takes a request body nested 256 levels deep', async () => {
    const deep = JSON.parse(`${'{"a":'.repeat(255)}{}${'}'.repeat(255)}`) as ProbeBody;
    expect((await preprocess(shared, deep)).state?.preprocessThread).not.toBe(threadId);
  });

  it('closes without starting threads when it was never used', async () => {
    const pool = newPool();
    await pool.close();
    expect(pool.started).toBe(false);
  });
});
