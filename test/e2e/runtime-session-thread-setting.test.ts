import { describe, expect, it } from '@jest/globals';
import type { LoadedModel, ModelRuntime, RuntimeSessionOptions } from '../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../src/runtime/onnx/index.js';
import { requestJson, startTestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/** The real ONNX runtime, recording the session options of every load. */
class RecordingRuntime implements ModelRuntime {
  readonly name = 'onnx';
  readonly loads: RuntimeSessionOptions[] = [];
  private readonly inner = new OnnxRuntime();

  load(modelPath: string, options: RuntimeSessionOptions): Promise<LoadedModel> {
    this.loads.push(options);
    return this.inner.load(modelPath, options);
  }
}

describe('runtime.sessionThread', () => {
  it.each([
    [true, { dedicatedThread: true }],
    [false, { dedicatedThread: undefined }],
  ])('set to %s, asks the CPU executor’s sessions for %o, and the model answers', async (sessionThread, expected) => {
    const runtime = new RecordingRuntime();
    const server = await startTestServer({ demoModels: ['iris'], runtime, config: { runtime: { sessionThread } } });
    try {
      expect(await requestJson(`${server.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200, body: { label: 'setosa' } });
      expect(runtime.loads.map((options) => ({ dedicatedThread: options.dedicatedThread }))).toEqual([expected]);
    } finally {
      await server.close();
    }
  });
});
