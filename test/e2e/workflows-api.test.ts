import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { copyExampleWorkflows } from '../support/workflows/workflow-store.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/** A flower the quick classifier is unsure of (no class above 90 %); the careful one says versicolor. */
const UNSURE = [6.7, 3.1, 4.4, 1.4];
/** A flower the quick classifier is sure of: setosa. */
const CLEAR = [5.1, 3.5, 1.4, 0.2];

interface OipOutput {
  readonly name: string;
  readonly datatype: string;
  readonly shape: readonly number[];
  readonly data: readonly number[];
}

/** Starts a server whose workflow store holds the iris-second-opinion example (registered at start-up). */
function startIrisServer(): Promise<TestServer> {
  return startTestServer({ demoModels: ['iris', 'iris-quick'], prepare: (_store, dir) => copyExampleWorkflows(dir, ['iris-second-opinion.yaml']) });
}

describe('the iris-second-opinion workflow over HTTP', () => {
  let t: TestServer;
  const wfpredict = (query: string, measurements: readonly number[]): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/wfpredict/iris-second-opinion${query}`, { method: 'POST', json: { measurements: [measurements] } });

  /** What a model itself answers for one flower over OIP: output name → [1, n] nested values. */
  async function modelAnswer(model: string, measurements: readonly number[]): Promise<Record<string, unknown>> {
    const { status, body } = await requestJson(`${t.inference}/v2/models/${model}/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], data: measurements }] },
    });
    expect(status).toBe(200);
    const outputs = (body as { outputs: OipOutput[] }).outputs;
    const nest = (o: OipOutput): unknown => (o.shape.length === 2 ? [[...o.data]] : [...o.data]);
    return Object.fromEntries(outputs.map((o) => [o.name, nest(o)]));
  }

  beforeAll(async () => {
    t = await startIrisServer();
  });
  afterAll(() => t.close());

  it('runs the careful classifier when the quick one is unsure', async () => {
    const { status, body } = await wfpredict('?debug=true', UNSURE);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      debug: { workflow: 'iris-second-opinion', nodes: { quick: { status: 'ok', attempts: 1 }, careful: { status: 'ok', attempts: 1 } }, skipped: [] },
    });
  });

  it('answers an unsure flower with the careful classifier’s answer', async () => {
    const careful = await modelAnswer('iris', UNSURE);
    const quick = await modelAnswer('iris-quick', UNSURE);
    expect(careful['label']).not.toEqual(quick['label']);
    expect(await wfpredict('', UNSURE)).toMatchObject({ status: 200, body: careful });
  });

  it('skips the careful classifier when the quick one is sure', async () => {
    const { status, body } = await wfpredict('?debug=true', CLEAR);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      debug: { nodes: { quick: { status: 'ok' }, careful: { status: 'skipped', attempts: 0, reason: '`when` is false' } }, skipped: ['careful'] },
    });
  });

  it('answers a clear flower with the quick classifier’s answer', async () => {
    expect(await wfpredict('', CLEAR)).toMatchObject({ status: 200, body: await modelAnswer('iris-quick', CLEAR) });
  });

  it('gives the outputs under `outputs` beside the trace with ?debug=true', async () => {
    const { body } = await wfpredict('?debug=true', UNSURE);
    expect(body).toEqual({ outputs: await modelAnswer('iris', UNSURE), debug: expect.any(Object) });
  });

  it('answers OIP tensors to OIP tensors on /v2/models/{workflow}/infer', async () => {
    const careful = await requestJson(`${t.inference}/v2/models/iris/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], data: UNSURE }] },
    });
    const { outputs } = careful.body as { outputs: OipOutput[] };
    const answer = await requestJson(`${t.inference}/v2/models/iris-second-opinion/infer`, {
      method: 'POST',
      json: { id: 'flower-7', inputs: [{ name: 'measurements', datatype: 'FP32', shape: [1, 4], data: UNSURE }] },
    });
    expect(answer).toMatchObject({ status: 200 });
    expect(answer.body).toEqual({
      model_name: 'iris-second-opinion',
      model_version: '1.0',
      id: 'flower-7',
      outputs: [
        { name: 'probabilities', datatype: 'FP32', shape: [1, 3], data: outputs.find((o) => o.name === 'probabilities')?.data },
        { name: 'label', datatype: 'INT64', shape: [1], data: [1] },
      ],
    });
  });

  it('answers only the requested outputs on /v2/models/{workflow}/infer', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/iris-second-opinion/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'measurements', datatype: 'FP32', shape: [1, 4], data: CLEAR }], outputs: [{ name: 'label' }] },
    });
    expect(answer).toMatchObject({ status: 200, body: { outputs: [{ name: 'label', datatype: 'INT64', shape: [1], data: [0] }] } });
  });

  it('refuses an output the workflow does not have on /v2/models/{workflow}/infer with 400 SLUICE_TENSOR_UNKNOWN_OUTPUT, as a model does', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/iris-second-opinion/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'measurements', datatype: 'FP32', shape: [1, 4], data: CLEAR }], outputs: [{ name: 'label' }, { name: 'labels' }] },
    });
    expect(answer).toEqual({
      status: 400,
      headers: expect.any(Headers),
      body: { error: 'workflow `iris-second-opinion` has no output `labels`; its outputs are: probabilities, label', errorCode: 'SLUICE_TENSOR_UNKNOWN_OUTPUT' },
    });
  });

  it('names a key of a /wfpredict body that is no input, instead of checking the whole body as the one tensor input', async () => {
    const answer = await requestJson(`${t.inference}/wfpredict/iris-second-opinion`, { method: 'POST', json: { measurements: [CLEAR], measurement: [CLEAR] } });
    expect(answer).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_WORKFLOW_INPUT_INVALID', message: 'workflow `iris-second-opinion`: there is no input `measurement` (did you mean `measurements`?)' },
    });
  });

  it('refuses an input given twice on /v2/models/{workflow}/infer with 400 SLUICE_WORKFLOW_INPUT_INVALID, instead of keeping the last', async () => {
    const measurements = (data: readonly number[]): unknown => ({ name: 'measurements', datatype: 'FP32', shape: [1, 4], data });
    const answer = await requestJson(`${t.inference}/v2/models/iris-second-opinion/infer`, { method: 'POST', json: { inputs: [measurements(UNSURE), measurements(CLEAR)] } });
    expect(answer).toEqual({
      status: 400,
      headers: expect.any(Headers),
      body: { error: 'workflow `iris-second-opinion`: input `measurements` is given more than once; send each input once', errorCode: 'SLUICE_WORKFLOW_INPUT_INVALID' },
    });
  });

  it('runs /v2/models/{workflow}/versions/{v}/infer at the version of its file', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/iris-second-opinion/versions/1.0/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'measurements', datatype: 'FP32', shape: [1, 4], data: CLEAR }] },
    });
    expect(answer).toMatchObject({ status: 200, body: { model_name: 'iris-second-opinion', model_version: '1.0' } });
  });

  it('refuses /v2/models/{workflow}/versions/{v}/infer at another version with 404 SLUICE_MODEL_VERSION_NOT_FOUND naming its own', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/iris-second-opinion/versions/2.0/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'measurements', datatype: 'FP32', shape: [1, 4], data: CLEAR }] },
    });
    expect(answer).toEqual({
      status: 404,
      headers: expect.any(Headers),
      body: {
        error:
          '`iris-second-opinion` is a workflow served at version `1.0` only (got version `2.0`); send it to POST /v2/models/iris-second-opinion/infer',
        errorCode: 'SLUICE_MODEL_VERSION_NOT_FOUND',
      },
    });
  });

  it('lists the registered workflows', async () => {
    expect(await requestJson(`${t.management}/workflows`)).toEqual({
      status: 200,
      headers: expect.any(Headers),
      body: { workflows: [{ workflowName: 'iris-second-opinion', workflowUrl: 'iris-second-opinion', workflowVersion: '1.0' }] },
    });
  });

  it('describes a workflow: its nodes, the models and versions they use, and their readiness', async () => {
    const { status, body } = await requestJson(`${t.management}/workflows/iris-second-opinion`);
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        workflowName: 'iris-second-opinion',
        workflowVersion: '1.0',
        workflowUrl: 'iris-second-opinion',
        description:
          'A quick classifier answers first; when it is unsure (no class above 90 %), the careful classifier is asked too and its answer wins.',
        registeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        responseTimeoutMs: 120000,
        ready: true,
        inputs: {
          measurements: {
            type: 'tensor',
            datatype: 'FP32',
            shape: [-1, 4],
            optional: false,
            description: 'sepal length, sepal width, petal length, petal width (cm)',
          },
        },
        outputs: ['probabilities', 'label'],
        nodes: [
          { id: 'quick', kind: 'model', target: 'iris-quick', version: '1.0', stage: 0, dependsOn: [], ready: true },
          { id: 'careful', kind: 'model', target: 'iris', version: '1.0', stage: 1, dependsOn: ['quick'], ready: true },
        ],
        stages: [['quick'], ['careful']],
        warnings: [],
      },
    ]);
  });
});

describe('the iris-second-opinion workflow after what it uses goes away', () => {
  let t: TestServer;

  beforeEach(async () => {
    t = await startIrisServer();
  });
  afterEach(() => t.close());

  it('answers 404 SLUICE_WORKFLOW_NOT_FOUND on /wfpredict once unregistered', async () => {
    expect(await requestJson(`${t.management}/workflows/iris-second-opinion`, { method: 'DELETE' })).toMatchObject({
      status: 200,
      body: { status: 'Workflow "iris-second-opinion" unregistered' },
    });
    expect(await requestJson(`${t.inference}/wfpredict/iris-second-opinion`, { method: 'POST', json: { measurements: [CLEAR] } })).toMatchObject({
      status: 404,
      body: {
        code: 404,
        type: 'WorkflowNotFoundException',
        errorCode: 'SLUICE_WORKFLOW_NOT_FOUND',
        message: 'workflow `iris-second-opinion` is not registered; registered workflows: none',
      },
    });
  });

  it('no longer lists or describes an unregistered workflow', async () => {
    await requestJson(`${t.management}/workflows/iris-second-opinion`, { method: 'DELETE' });
    expect((await requestJson(`${t.management}/workflows`)).body).toEqual({ workflows: [] });
    expect(await requestJson(`${t.management}/workflows/iris-second-opinion`)).toMatchObject({
      status: 404,
      body: { errorCode: 'SLUICE_WORKFLOW_NOT_FOUND', message: 'workflow `iris-second-opinion` is not registered; registered workflows: none' },
    });
  });

  it('describes a node whose model has no workers as not ready, and the workflow with it', async () => {
    expect(await requestJson(`${t.management}/models/iris?min_worker=0&synchronous=true`, { method: 'PUT' })).toMatchObject({ status: 200 });
    expect((await requestJson(`${t.management}/workflows/iris-second-opinion`)).body).toMatchObject([
      {
        ready: false,
        nodes: [
          { id: 'quick', target: 'iris-quick', version: '1.0', ready: true },
          { id: 'careful', target: 'iris', version: '1.0', ready: false },
        ],
      },
    ]);
  });
});
