import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { copyExampleWorkflows, writeWorkflowFile } from '../support/workflows/workflow-store.js';

/**
 * A classifier fed by a first model, shaped like TorchServe's dog-breed example (a cat/dog classifier
 * feeding a breed classifier): here `measure` passes the flower's measurements through to `iris`.
 */
const CHAIN_SPEC = `models:
  min-workers: 1
  max-workers: 1
  batch-size: 2
  max-batch-delay: 5
  retry-attempts: 1
  timeout-ms: 5000
  measure:
    url: measure.mar
  classify:
    url: iris.mar
dag:
  measure: [classify]
`;

/**
 * Two "translators" in parallel joined by an aggregate function, shaped like TorchServe's NMT example
 * (pre_processing → two translation models → aggregate_func): here the quick and careful iris classifiers.
 */
const OPINIONS_SPEC = `models:
  min-workers: 1
  max-workers: 1
  batch-size: 4
  max-batch-delay: 5
  retry-attempts: 1
  timeout-ms: 5000
  quick_classifier:
    url: iris-quick.mar
  careful_classifier:
    url: iris.mar
dag:
  pre_processing: [quick_classifier, careful_classifier]
  quick_classifier: [aggregate_func]
  careful_classifier: [aggregate_func]
`;

/** The same fan-out without the aggregate: two leaves. */
const TWO_LEAVES_SPEC = `models:
  quick_classifier:
    url: iris-quick.mar
  careful_classifier:
    url: iris.mar
dag:
  pre_processing: [quick_classifier, careful_classifier]
`;

/** The function nodes of the opinions specs; each records the input it was given in its result. */
const OPINION_FUNCTIONS = `// Function nodes of a TorchServe workflow spec.
export function pre_processing(body) {
  return body.data;
}

export function aggregate_func(answers) {
  return { parents: Object.keys(answers).sort(), quick: answers.quick_classifier, careful: answers.careful_classifier };
}
`;

/** A spec that registers `measure-again` and `iris`, then is refused: its function node has no module. */
const REFUSED_SPEC = `models:
  measure:
    url: measure-again.mar
  classify:
    url: iris.mar
dag:
  measure: [classify]
  classify: [explain]
`;

/** A spec whose batch size is above the 4096 rows model.yaml allows. */
const OVERSIZED_SPEC = `models:
  batch-size: 5000
  measure:
    url: measure-again.mar
dag:
  measure: []
`;

const FLOWER = [6.7, 3.1, 4.4, 1.4];

describe('TorchServe workflow specs', () => {
  let t: TestServer;
  const register = (query: string): ReturnType<typeof requestJson> => requestJson(`${t.management}/workflows?${query}`, { method: 'POST' });
  const run = (name: string, json: unknown): ReturnType<typeof requestJson> => requestJson(`${t.inference}/wfpredict/${name}`, { method: 'POST', json });
  const predict = async (model: string, json: unknown): Promise<unknown> => {
    const { status, body } = await requestJson(`${t.inference}/predictions/${model}`, { method: 'POST', json });
    expect(status).toBe(200);
    return body;
  };

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick'],
      // `measure` is left for the chain spec to register.
      config: { models: ['iris', 'iris-quick'], workflows: [] },
      prepare: async (store, dir) => {
        await addStoreModel(store, 'measure', (modelDir) => writeIdentityModel(modelDir, 'FP32', [-1, 4]), { name: 'measure', version: '1.0' });
        await addStoreModel(store, 'measure-again', (modelDir) => writeIdentityModel(modelDir, 'FP32', [-1, 4]), { name: 'measure-again', version: '1.0' });
        await writeWorkflowFile(dir, 'chain.yaml', CHAIN_SPEC);
        await writeWorkflowFile(dir, 'refused.yaml', REFUSED_SPEC);
        await writeWorkflowFile(dir, 'oversized.yaml', OVERSIZED_SPEC);
        await writeWorkflowFile(dir, 'opinions.yaml', OPINIONS_SPEC);
        await writeWorkflowFile(dir, 'two-leaves.yaml', TWO_LEAVES_SPEC);
        await writeWorkflowFile(dir, 'opinion-functions.js', OPINION_FUNCTIONS);
        await copyExampleWorkflows(dir, ['torchserve-iris.yaml', 'torchserve-iris.js']);
      },
    });
  });
  afterAll(() => t.close());

  it('registers a spec of two models in a chain', async () => {
    expect(await register('url=chain')).toMatchObject({ status: 200, body: { status: 'Workflow "chain" version 1 registered' } });
  });

  it('registers the spec’s models as <workflow>__<model>, with the spec’s settings', async () => {
    await register('url=chain');
    expect((await requestJson(`${t.management}/models/chain__measure`)).body).toMatchObject([
      { modelName: 'chain__measure', modelVersion: '1.0', minWorkers: 1, maxWorkers: 1, batchSize: 2, maxBatchDelay: 5, status: 'READY' },
    ]);
  });

  it('feeds the first model’s answer to the second as its body and answers the one leaf’s result as it is', async () => {
    await register('url=chain');
    const measured = await predict('chain__measure', FLOWER);
    expect(await run('chain', FLOWER)).toEqual({ status: 200, headers: expect.any(Headers), body: await predict('iris', measured) });
  });

  it('answers the iris label through the chain', async () => {
    await register('url=chain');
    expect(await run('chain', FLOWER)).toMatchObject({ status: 200, body: { label: 'versicolor' } });
  });

  it('gives the start node the request body, each parallel model its parent’s result, and the aggregate one entry per parent', async () => {
    expect(await register('url=opinions&handler=opinion-functions.js')).toMatchObject({ status: 200 });
    expect(await run('opinions', { data: FLOWER })).toEqual({
      status: 200,
      headers: expect.any(Headers),
      body: {
        parents: ['careful_classifier', 'quick_classifier'],
        quick: await predict('iris-quick', FLOWER),
        careful: await predict('iris', FLOWER),
      },
    });
  });

  it('answers an object keyed by leaf when the dag has several leaves', async () => {
    expect(await register('url=two-leaves&handler=opinion-functions.js')).toMatchObject({ status: 200 });
    expect(await run('two-leaves', { data: FLOWER })).toEqual({
      status: 200,
      headers: expect.any(Headers),
      body: { quick_classifier: await predict('iris-quick', FLOWER), careful_classifier: await predict('iris', FLOWER) },
    });
  });

  it('describes a converted spec’s nodes as handler nodes, one per spec node', async () => {
    await register('url=opinions&handler=opinion-functions.js');
    expect((await requestJson(`${t.management}/workflows/opinions`)).body).toMatchObject([
      {
        workflowName: 'opinions',
        workflowVersion: '1',
        ready: true,
        nodes: [
          { id: 'pre_processing', kind: 'handler', target: 'torchserve/opinions.pre_processing', stage: 0, dependsOn: [] },
          { id: 'quick_classifier', kind: 'handler', target: 'torchserve/opinions.quick_classifier', stage: 1, dependsOn: ['pre_processing'] },
          { id: 'careful_classifier', kind: 'handler', target: 'torchserve/opinions.careful_classifier', stage: 1, dependsOn: ['pre_processing'] },
          { id: 'aggregate_func', kind: 'handler', target: 'torchserve/opinions.aggregate_func', stage: 2, dependsOn: ['quick_classifier', 'careful_classifier'] },
        ],
      },
    ]);
  });

  it('finds the function module next to the spec by convention (the torchserve-iris example)', async () => {
    expect(await register('url=torchserve-iris')).toMatchObject({ status: 200 });
    expect(await run('torchserve-iris', FLOWER)).toEqual({
      status: 200,
      headers: expect.any(Headers),
      body: { quick: await predict('iris-quick', FLOWER), careful: await predict('iris', FLOWER), agree: false },
    });
  });

  it('refuses a spec with function nodes but no module with 400 naming the nodes', async () => {
    expect(await register('url=opinions')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_WORKFLOW_INVALID',
        message:
          'opinions.yaml: the dag has function nodes (pre_processing, aggregate_func) but no handler module was given; register with handler=<module in the workflow store>',
      },
    });
  });

  it('refuses a spec whose batch-size is above the bound of model.yaml with 400 naming it and the range, registering nothing', async () => {
    expect(await register('url=oversized')).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_WORKFLOW_INVALID', message: 'oversized.yaml: `models.batch-size` must be an integer between 1 and 4096, got 5000' },
    });
    expect(await requestJson(`${t.management}/models/oversized__measure`)).toMatchObject({ status: 404 });
  });

  it('takes back the models a refused spec registered and keeps those that were registered before', async () => {
    expect(await register('url=refused')).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_WORKFLOW_INVALID' } });
    expect(await requestJson(`${t.management}/models/refused__measure`)).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
    expect(await requestJson(`${t.management}/models/refused__classify`)).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
    expect(await requestJson(`${t.management}/models/iris`)).toMatchObject({ status: 200, body: [{ modelName: 'iris', status: 'READY' }] });
    expect(await requestJson(`${t.management}/workflows/refused`)).toMatchObject({ status: 404 });
  });
});
