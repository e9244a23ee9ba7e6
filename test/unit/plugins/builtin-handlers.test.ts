import { describe, expect, it } from '@jest/globals';
import { builtinHandlers, classifierHandler, passthroughHandler } from '../../../plugins/builtin-handlers/index.js';
import type { Logger } from '../../../src/sdk/logging/logger.js';
import { trace } from '@opentelemetry/api';
import type { BodyForm, HandlerContext, HandlerResult, ModelDescription, Tensor } from '../../../src/sdk/index.js';

const silent: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silent,
};

const iris: ModelDescription = {
  name: 'iris',
  version: '1',
  inputs: [{ name: 'features', datatype: 'FP32', shape: [-1, 4] }],
  outputs: [
    { name: 'label', datatype: 'INT64', shape: [-1] },
    { name: 'probabilities', datatype: 'FP32', shape: [-1, 3] },
  ],
  labels: ['setosa', 'versicolor', 'virginica'],
};

function context(model: ModelDescription = iris): HandlerContext {
  return { model, logger: silent, tracer: trace.getTracer('test'), signal: new AbortController().signal, config: {}, sendPartial: () => Promise.resolve() };
}

const fp32 = (name: string, shape: number[], values: number[]): Tensor => ({ name, datatype: 'FP32', shape, data: new Float32Array(values) });

/** Calls `action` the way the serving core does (awaited inside an async function), so a throw becomes a rejection. */
async function settled<T>(action: () => Promise<T>): Promise<T> {
  return action();
}

function result(outputs: Tensor[], state: BodyForm | undefined): HandlerResult<BodyForm> {
  return { request: { body: null, contentType: 'application/json' }, outputs, state };
}

describe('builtinHandlers', () => {
  it('provides passthrough and classifier', () => {
    expect(builtinHandlers.map((h) => h.name)).toEqual(['passthrough', 'classifier']);
  });
});

describe('passthroughHandler', () => {
  it('decodes each JSON request and remembers its form', async () => {
    const prepared = await passthroughHandler.preprocess(
      [
        { body: [1, 2, 3, 4], contentType: 'application/json' },
        { body: { instances: [[1, 2, 3, 4]] }, contentType: 'application/json' },
      ],
      context(),
    );
    expect(prepared).toEqual([
      { inputs: [{ name: 'features', datatype: 'FP32', shape: [1, 4], data: new Float32Array([1, 2, 3, 4]) }], state: 'single' },
      { inputs: [{ name: 'features', datatype: 'FP32', shape: [1, 4], data: new Float32Array([1, 2, 3, 4]) }], state: 'instances' },
    ]);
  });

  it('refuses a body that is not JSON with SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE', async () => {
    await expect(settled(() => passthroughHandler.preprocess([{ body: new Uint8Array([1]), contentType: 'image/png' }], context()))).rejects.toMatchObject({
      code: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
      message: 'model `iris` takes JSON tensors, got image/png; send Content-Type: application/json',
    });
  });

  it('says when a raw body came without a content type', async () => {
    await expect(settled(() => passthroughHandler.preprocess([{ body: new Uint8Array([1]), contentType: '' }], context()))).rejects.toMatchObject({
      message: 'model `iris` takes JSON tensors, got bytes that are not JSON and no content type; send the body as JSON (in input["data"] over gRPC)',
    });
  });

  it('answers outputs shaped by each request’s form', async () => {
    const outputs = [fp32('probabilities', [1, 3], [0.25, 0.5, 0.25])];
    const answers = await passthroughHandler.postprocess([result(outputs, 'single'), result(outputs, 'batch'), result(outputs, undefined)], context());
    expect(answers).toEqual([[0.25, 0.5, 0.25], [[0.25, 0.5, 0.25]], [[0.25, 0.5, 0.25]]]);
  });
});

describe('built-in handlers on bad input', () => {
  const png = [{ body: new Uint8Array([1]), contentType: 'image/png' }];
  const broken = [{ request: { body: null, contentType: 'application/json' }, outputs: null, state: 'batch' }] as unknown as HandlerResult<BodyForm>[];

  it('passthrough preprocess rejects instead of throwing', async () => {
    let answer: Promise<unknown> | undefined;
    expect(() => (answer = passthroughHandler.preprocess(png, context()))).not.toThrow();
    await expect(answer).rejects.toMatchObject({ code: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE' });
  });

  it('passthrough postprocess rejects instead of throwing', async () => {
    let answer: Promise<unknown> | undefined;
    expect(() => (answer = passthroughHandler.postprocess(broken, context()))).not.toThrow();
    await expect(answer).rejects.toBeInstanceOf(TypeError);
  });

  it('classifier preprocess rejects instead of throwing', async () => {
    let answer: Promise<unknown> | undefined;
    expect(() => (answer = classifierHandler.preprocess(png, context()))).not.toThrow();
    await expect(answer).rejects.toMatchObject({ code: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE' });
  });

  it('classifier postprocess rejects instead of throwing', async () => {
    let answer: Promise<unknown> | undefined;
    expect(() => (answer = classifierHandler.postprocess([result([], 'batch')], context()))).not.toThrow();
    await expect(answer).rejects.toMatchObject({ code: 'SLUICE_HANDLER_FAILED' });
  });
});

describe('classifierHandler', () => {
  const label: Tensor = { name: 'label', datatype: 'INT64', shape: [2], data: new BigInt64Array([1n, 2n]) };
  const probabilities = fp32('probabilities', [2, 3], [0.25, 0.5, 0.25, 0, 0.125, 0.875]);

  it('names the most probable class with the manifest’s labels', async () => {
    const [answer] = await classifierHandler.postprocess([result([label, probabilities], 'batch')], context());
    expect(answer).toEqual([
      { label: 'versicolor', probabilities: { setosa: 0.25, versicolor: 0.5, virginica: 0.25 } },
      { label: 'virginica', probabilities: { setosa: 0, versicolor: 0.125, virginica: 0.875 } },
    ]);
  });

  it('answers one classification, not a list, for a single instance', async () => {
    const one = fp32('probabilities', [1, 3], [0.125, 0.125, 0.75]);
    const [answer] = await classifierHandler.postprocess([result([one], 'single')], context());
    expect(answer).toEqual({ label: 'virginica', probabilities: { setosa: 0.125, versicolor: 0.125, virginica: 0.75 } });
  });

  it('uses class indices when the model has no labels', async () => {
    const unlabelled: ModelDescription = { ...iris, labels: undefined, outputs: [{ name: 'scores', datatype: 'FP32', shape: [-1, 3] }] };
    const scores = fp32('scores', [1, 3], [0.5, 0.25, 0.25]);
    const [answer] = await classifierHandler.postprocess([result([scores], 'batch')], context(unlabelled));
    expect(answer).toEqual([{ label: '0', probabilities: { '0': 0.5, '1': 0.25, '2': 0.25 } }]);
  });

  it('finds a float output with one score per class when none is called probabilities', async () => {
    const scores = fp32('output_probability', [1, 3], [0, 1, 0]);
    const [answer] = await classifierHandler.postprocess([result([label, scores], 'batch')], context());
    expect(answer).toEqual([{ label: 'versicolor', probabilities: { setosa: 0, versicolor: 1, virginica: 0 } }]);
  });

  it('fails with SLUICE_HANDLER_FAILED when no output holds class scores', async () => {
    await expect(settled(() => classifierHandler.postprocess([result([label], 'batch')], context()))).rejects.toMatchObject({
      code: 'SLUICE_HANDLER_FAILED',
      message: 'classifier handler: model `iris` has no float output of 3 classes (name it `probabilities`); use handler: passthrough for raw outputs',
    });
  });

  it('prefers the output named probabilities over an earlier float output of as many classes', async () => {
    const logits = fp32('logits', [1, 3], [9, 0, 0]);
    const one = fp32('probabilities', [1, 3], [0, 0, 1]);
    const [answer] = await classifierHandler.postprocess([result([logits, one], 'single')], context());
    expect(answer).toMatchObject({ label: 'virginica' });
  });

  it('skips a float output whose last dimension is not the number of labels', async () => {
    const embedding = fp32('embedding', [1, 2], [5, 5]);
    const scores = fp32('output_probability', [1, 3], [0, 1, 0]);
    const [answer] = await classifierHandler.postprocess([result([embedding, scores], 'single')], context());
    expect(answer).toMatchObject({ label: 'versicolor' });
  });

  it('fails with SLUICE_HANDLER_FAILED when probabilities has another number of classes than the labels', async () => {
    const four = fp32('probabilities', [1, 4], [0.25, 0.25, 0.25, 0.25]);
    await expect(classifierHandler.postprocess([result([four], 'batch')], context())).rejects.toMatchObject({
      code: 'SLUICE_HANDLER_FAILED',
      message:
        'classifier handler: output `probabilities` of model `iris` has 4 classes but the labels file names 3; fix the labels or use handler: passthrough for raw outputs',
    });
  });

  describe('without labels', () => {
    const unlabelled = (outputs: ModelDescription['outputs']): ModelDescription => ({ ...iris, labels: undefined, outputs });
    const labelSpec = { name: 'label', datatype: 'INT64', shape: [-1] } as const;

    it('reads the first float output of rank 2 or more when a non-float output comes first', async () => {
      const model = unlabelled([labelSpec, { name: 'scores', datatype: 'FP32', shape: [-1, 3] }]);
      const scores = fp32('scores', [1, 3], [0.25, 0.5, 0.25]);
      const [answer] = await classifierHandler.postprocess([result([label, scores], 'single')], context(model));
      expect(answer).toEqual({ label: '1', probabilities: { '0': 0.25, '1': 0.5, '2': 0.25 } });
    });

    it('skips a float output of rank 1', async () => {
      const model = unlabelled([{ name: 'score', datatype: 'FP32', shape: [-1] }, { name: 'scores', datatype: 'FP32', shape: [-1, 2] }]);
      const outputs = [fp32('score', [1], [7]), fp32('scores', [1, 2], [0.75, 0.25])];
      const [answer] = await classifierHandler.postprocess([result(outputs, 'single')], context(model));
      expect(answer).toEqual({ label: '0', probabilities: { '0': 0.75, '1': 0.25 } });
    });

    it('takes the number of classes from the output tensor when the declared one is variable', async () => {
      const model = unlabelled([{ name: 'scores', datatype: 'FP32', shape: [-1, -1] }]);
      const [answer] = await classifierHandler.postprocess([result([fp32('scores', [1, 2], [0.125, 0.875])], 'single')], context(model));
      expect(answer).toEqual({ label: '1', probabilities: { '0': 0.125, '1': 0.875 } });
    });

    it('prefers the output named probabilities', async () => {
      const model = unlabelled([{ name: 'embedding', datatype: 'FP32', shape: [-1, 2] }, { name: 'probabilities', datatype: 'FP32', shape: [-1, 3] }]);
      const outputs = [fp32('embedding', [1, 2], [9, 9]), fp32('probabilities', [1, 3], [0, 0, 1])];
      const [answer] = await classifierHandler.postprocess([result(outputs, 'single')], context(model));
      expect(answer).toMatchObject({ label: '2' });
    });

    it('fails with SLUICE_HANDLER_FAILED when no float output has rank 2 or more', async () => {
      const model = unlabelled([labelSpec]);
      await expect(classifierHandler.postprocess([result([label], 'batch')], context(model))).rejects.toMatchObject({
        code: 'SLUICE_HANDLER_FAILED',
        message:
          'classifier handler: model `iris` has no float output of rank 2 or more to read class scores from (name it `probabilities`); use handler: passthrough for raw outputs',
      });
    });
  });

  it('answers one classification per instance for instances requests', async () => {
    const [answer] = await classifierHandler.postprocess([result([probabilities], 'instances')], context());
    expect((answer as unknown[]).map((c) => (c as { label: string }).label)).toEqual(['versicolor', 'virginica']);
  });

  it('decodes JSON requests like passthrough', async () => {
    const prepared = await classifierHandler.preprocess([{ body: { data: [[1, 2, 3, 4]] }, contentType: 'application/json' }], context());
    expect(prepared).toEqual([{ inputs: [{ name: 'features', datatype: 'FP32', shape: [1, 4], data: new Float32Array([1, 2, 3, 4]) }], state: 'batch' }]);
  });
});
