import { existsSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { SluiceError, type Handler, type HandlerContext, type HandlerRequest, type HandlerResult, type Tensor } from '../../../src/sdk/index.js';

/** What a probe request asks the handler to do; every field is optional. */
export interface ProbeBody {
  /** The four iris features for the model's first input (default zeros). */
  readonly features?: readonly number[];
  /** Throw in this stage: a plain `Error` or a `SluiceError` (`SLUICE_REQUEST_INVALID`). */
  readonly fail?: { readonly stage: 'preprocess' | 'postprocess'; readonly kind: 'plain' | 'sluice' };
  /** Write this info line (with the thread id) at the start of preprocessing. */
  readonly log?: string;
  /** Busy-loop in preprocessing until this file exists or `maxRounds` rounds of work are done. */
  readonly holdUntil?: string;
  readonly maxRounds?: number;
  /** Answer with something that cannot cross threads (a function). */
  readonly uncloneable?: boolean;
  /** Wait in preprocessing until the context's signal aborts. */
  readonly untilAborted?: boolean;
  /** End the thread in the middle of preprocessing. */
  readonly exitThread?: boolean;
}

/** What preprocessing remembers about a probe request. */
export interface ProbeState {
  readonly preprocessThread: number;
  readonly abortedInPreprocess: boolean;
}

/** What a probe answers. */
export interface ProbeResponse extends ProbeState {
  readonly postprocessThread: number;
  readonly outputs: readonly string[];
  readonly uncloneable?: () => void;
}

function bodyOf(request: HandlerRequest): ProbeBody {
  return request.body ?? {};
}

function maybeFail(body: ProbeBody, stage: 'preprocess' | 'postprocess'): void {
  if (body.fail?.stage !== stage) return;
  if (body.fail.kind === 'sluice') throw new SluiceError('SLUICE_REQUEST_INVALID', `probe refused the request in ${stage}`, { stage });
  throw new TypeError(`probe broke in ${stage}`);
}

/** A fixed amount of arithmetic, so that holding keeps the thread busy rather than asleep. */
function round(): number {
  let x = 0;
  for (let i = 0; i < 100_000; i++) x = (x * 31 + i) % 1_000_003;
  return x;
}

function hold(body: ProbeBody): void {
  if (body.holdUntil === undefined) return;
  const rounds = body.maxRounds ?? 1_000_000;
  for (let i = 0; i < rounds && !existsSync(body.holdUntil); i++) round();
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    signal.addEventListener(
      'abort',
      () => {
        resolve();
      },
      { once: true },
    );
  });
}

async function prepare(request: HandlerRequest, context: HandlerContext): Promise<{ inputs: Tensor[]; state: ProbeState }> {
  const body = bodyOf(request);
  if (body.log !== undefined) context.logger.info(body.log, { thread: threadId });
  maybeFail(body, 'preprocess');
  if (body.exitThread === true) process.exit(3);
  hold(body);
  if (body.untilAborted === true) await aborted(context.signal);
  const features = new Float32Array(body.features ?? [0, 0, 0, 0]);
  return {
    inputs: [{ name: context.model.inputs[0]?.name ?? 'features', datatype: 'FP32', shape: [1, features.length], data: features }],
    state: { preprocessThread: threadId, abortedInPreprocess: context.signal.aborted },
  };
}

function respond(result: HandlerResult<ProbeState>): ProbeResponse {
  const body = bodyOf(result.request);
  maybeFail(body, 'postprocess');
  return {
    ...(body.uncloneable === true ? { uncloneable: () => undefined } : {}),
    preprocessThread: result.state?.preprocessThread ?? -1,
    abortedInPreprocess: result.state?.abortedInPreprocess ?? false,
    postprocessThread: threadId,
    outputs: result.outputs.map((t) => t.name),
  };
}

/**
 * A CPU-heavy test handler for iris-shaped models that reports the threads it ran on and, on request,
 * fails, logs or holds its thread busy.
 */
export const threadProbeHandler: Handler<ProbeState> = {
  name: 'thread-probe',
  cpuHeavy: { module: import.meta.url, exportName: 'threadProbeHandler' },
  async preprocess(requests, context) {
    return Promise.all(requests.map((request) => prepare(request, context)));
  },
  async postprocess(results) {
    return Promise.resolve(results.map(respond));
  },
};
