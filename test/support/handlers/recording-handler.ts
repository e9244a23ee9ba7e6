import { classifierHandler } from '../../../plugins/builtin-handlers/index.js';
import type { BodyForm } from '../../../src/sdk/index.js';
import type { Handler } from '../../../src/sdk/handler/handler.js';

/** The classifier handler under another name, counting how often a request reached it. */
export interface RecordingHandler extends Handler<BodyForm> {
  readonly calls: { count: number };
}

/** A classifier handler named `name` that counts its preprocess calls. */
export function recordingHandler(name = 'recording'): RecordingHandler {
  const calls = { count: 0 };
  return {
    name,
    calls,
    preprocess(requests, context) {
      calls.count += requests.length;
      return classifierHandler.preprocess(requests, context);
    },
    postprocess(results, context) {
      return classifierHandler.postprocess(results, context);
    },
  };
}
