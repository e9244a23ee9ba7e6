import type { Handler, HandlerRequest, Tensor } from '../../../src/sdk/index.js';

/** What a request to a stalling handler asks of it; every field is optional. */
export interface StallBody {
  /** The four iris features for the model's first input (default zeros). */
  readonly features?: readonly number[];
  /** Return a promise from this stage that does not settle (unless `settleAfterMs` is given). */
  readonly stall?: 'preprocess' | 'postprocess';
  /** Settle the stalled stage after this many milliseconds instead of never. */
  readonly settleAfterMs?: number;
  /** How the stalled stage settles when it does: with its normal result (default) or an error. */
  readonly settleWith?: 'result' | 'error';
}

/** A stalling handler and how often each of its stages settled. */
export interface StallingHandler extends Handler {
  readonly settled: { preprocess: number; postprocess: number };
}

function bodyOf(request: HandlerRequest): StallBody {
  return request.body ?? {};
}

/**
 * An event-loop test handler for iris-shaped models whose stages, on request, return a promise that
 * never settles, or settles only after a delay.
 */
export function stallingHandler(name = 'stalling'): StallingHandler {
  const settled = { preprocess: 0, postprocess: 0 };
  /** `value` as the stage's result, at once or stalled as `body` asks; counts the stage once it settles. */
  const stage = <T>(body: StallBody, which: 'preprocess' | 'postprocess', value: T): Promise<T> => {
    if (body.stall !== which) {
      settled[which]++;
      return Promise.resolve(value);
    }
    const delay = body.settleAfterMs;
    if (delay === undefined) return new Promise<T>(() => undefined);
    return new Promise<T>((resolve, reject) => {
      setTimeout(() => {
        settled[which]++;
        if (body.settleWith === 'error') reject(new TypeError(`${name} failed late in ${which}`));
        else resolve(value);
      }, delay);
    });
  };
  return {
    name,
    settled,
    preprocess(requests, context) {
      const body = bodyOf(requests[0] ?? { body: {}, contentType: 'application/json' });
      return stage(
        body,
        'preprocess',
        requests.map((request) => {
          const features = new Float32Array(bodyOf(request).features ?? [0, 0, 0, 0]);
          const input: Tensor = { name: context.model.inputs[0]?.name ?? 'features', datatype: 'FP32', shape: [1, features.length], data: features };
          return { inputs: [input] };
        }),
      );
    },
    postprocess(results) {
      const body = bodyOf(results[0]?.request ?? { body: {}, contentType: 'application/json' });
      return stage(
        body,
        'postprocess',
        results.map((result) => ({ outputs: result.outputs.map((t) => t.name) })),
      );
    },
  };
}
