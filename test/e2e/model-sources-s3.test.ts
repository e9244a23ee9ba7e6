import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packModelArchive } from '../../src/model-store/index.js';
import { packageRoot } from '../../src/package-files/package-root.js';
import { packWorkflowArchive } from '../../src/workflow/serving/workflow-archive.js';
import { startLoopbackS3, setEnvironment, type LoopbackS3 } from '../support/s3-store.js';
import { makeTempDir } from '../support/temp-dir.js';
import { memoryLogger, requestJson, startTestServer, type JsonAnswer, type TestServer } from '../support/test-server.js';

const ALLOWED = ['s3://models/.*'];
const ONE_STEP_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: s3-flow, version: "1.0" }
inputs:
  measurements: { datatype: FP32, shape: [-1, 4] }
nodes:
  classify:
    model: iris
    inputs: { input: $request.measurements }
outputs:
  probabilities: classify.probabilities
`;
const TORCHSERVE_SPEC = `models:
  classifier:
    url: s3://models/team/spec-model/
dag:
  classifier: []
`;
const IRIS_INPUT = { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: [5.1, 3.5, 1.4, 0.2] }] };

async function uploadDirectory(s3: LoopbackS3, dir: string, prefix: string, only?: readonly string[]): Promise<void> {
  for (const name of only ?? (await readdir(dir))) await s3.put('models', `${prefix}${name}`, await readFile(join(dir, name)));
}

describe('model sources: S3', () => {
  let s3: LoopbackS3;
  let t: TestServer;
  let restoreEnv: () => void;
  let serverDir: { dir: string; cleanup: () => Promise<void> };
  const lines: string[] = [];
  const register = (url: string): Promise<JsonAnswer> => requestJson(`${t.management}/models?url=${encodeURIComponent(url)}`, { method: 'POST' });
  const unregister = (name: string, version: string): Promise<JsonAnswer> => requestJson(`${t.management}/models/${name}/${version}`, { method: 'DELETE' });
  const infer = (name: string): Promise<JsonAnswer> => requestJson(`${t.inference}/v2/models/${name}/infer`, { method: 'POST', json: IRIS_INPUT });
  const start = async (): Promise<TestServer> =>
    startTestServer({ dir: serverDir.dir, demoModels: [], config: { allowedUrls: ALLOWED, models: [] }, logger: memoryLogger(lines) });

  beforeAll(async () => {
    s3 = await startLoopbackS3();
    restoreEnv = setEnvironment(s3.env);
    await s3.createBucket('models');
    const models = join(packageRoot(), 'model-store');
    await uploadDirectory(s3, join(models, 'iris'), 'team/iris/');
    await uploadDirectory(s3, join(models, 'iris'), 'team/bare/', ['model.onnx']);
    serverDir = await makeTempDir('sluice-e2e-');
    const archive = join(serverDir.dir, 'mlp.sluice');
    await packModelArchive(join(models, 'mlp'), archive);
    await s3.put('models', 'archives/mlp.sluice', await readFile(archive));
    await s3.put('models', 'flows/one-step.yaml', ONE_STEP_WORKFLOW);
    await s3.put('models', 'flows/torchserve-spec.yaml', TORCHSERVE_SPEC);
    const flowDir = join(serverDir.dir, 'archived-flow');
    await mkdir(flowDir);
    await writeFile(join(flowDir, 'workflow.yaml'), ONE_STEP_WORKFLOW.replace('name: s3-flow', 'name: s3-archived-flow'));
    await packWorkflowArchive(flowDir, join(serverDir.dir, 'archived-flow.sluice'));
    await s3.put('models', 'flows/archived-flow.sluice', await readFile(join(serverDir.dir, 'archived-flow.sluice')));
    t = await start();
  });
  afterAll(async () => {
    await t.close();
    await serverDir.cleanup();
    await s3.close();
    restoreEnv();
  });

  it('registers the model directory under an S3 prefix and serves it', async () => {
    expect(await register('s3://models/team/iris/')).toMatchObject({ status: 200 });
    expect(await infer('iris')).toMatchObject({ status: 200, body: { model_name: 'iris' } });
  });

  it('registers a prefix holding only model.onnx under the name of its last segment, with a manifest made for it', async () => {
    expect(await register('s3://models/team/bare')).toMatchObject({ status: 200 });
    expect(await requestJson(`${t.management}/models/bare`)).toMatchObject({ status: 200, body: [{ modelName: 'bare', modelVersion: '1', modelUrl: 's3://models/team/bare' }] });
    expect(await infer('bare')).toMatchObject({ status: 200 });
  });

  it('registers a .sluice archive object as an archive', async () => {
    expect(await register('s3://models/archives/mlp.sluice')).toMatchObject({ status: 200 });
    expect(await requestJson(`${t.management}/models/mlp`)).toMatchObject({ status: 200, body: [{ modelName: 'mlp', modelUrl: 's3://models/archives/mlp.sluice' }] });
  });

  it('logs the download with its bytes, percent and rate, naming the URL', () => {
    const done = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'model source downloaded');
    expect(done).toEqual(
      expect.arrayContaining([expect.objectContaining({ source: 's3://models/team/iris/', percent: 100, bytes: expect.any(Number), bytesPerSecond: expect.any(Number) })]),
    );
  });

  it('does not download a source again when it is registered a second time at the same version', async () => {
    expect(await unregister('iris', '1.0')).toMatchObject({ status: 200 });
    const before = lines.length;
    expect(await register('s3://models/team/iris/')).toMatchObject({ status: 200 });
    const after = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(after.filter((line) => line.msg === 'model source download started')).toEqual([]);
    expect(after).toEqual(expect.arrayContaining([expect.objectContaining({ msg: 'model source already downloaded at this version; not downloading it again' })]));
  });

  it('downloads a source again once an object under it changed', async () => {
    expect(await unregister('bare', '1')).toMatchObject({ status: 200 });
    await s3.put('models', 'team/bare/notes.txt', 'a new file beside the model');
    const before = lines.length;
    expect(await register('s3://models/team/bare')).toMatchObject({ status: 200 });
    const after = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(after).toEqual(expect.arrayContaining([expect.objectContaining({ msg: 'model source download started', source: 's3://models/team/bare' })]));
  });

  it('restores the snapshot after a restart without reaching the store', async () => {
    await t.close();
    // With the store unreachable, only what was downloaded before can serve.
    const restore = setEnvironment({ AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' });
    try {
      t = await start();
    } finally {
      restore();
    }
    expect(await infer('iris')).toMatchObject({ status: 200 });
    expect(await infer('bare')).toMatchObject({ status: 200 });
    expect(await requestJson(`${t.management}/models/mlp`)).toMatchObject({ status: 200 });
  });

  it('registers a workflow file from S3', async () => {
    expect(await requestJson(`${t.management}/workflows?url=${encodeURIComponent('s3://models/flows/one-step.yaml')}`, { method: 'POST' })).toMatchObject({ status: 200 });
    const answer = await requestJson(`${t.inference}/v2/models/s3-flow/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'measurements', shape: [1, 4], datatype: 'FP32', data: [5.1, 3.5, 1.4, 0.2] }] },
    });
    expect(answer).toMatchObject({ status: 200 });
  });

  it('registers the S3 models a TorchServe workflow spec from S3 names', async () => {
    await uploadDirectory(s3, join(packageRoot(), 'model-store', 'iris'), 'team/spec-model/', ['model.onnx']);
    const answer = await requestJson(`${t.management}/workflows?url=${encodeURIComponent('s3://models/flows/torchserve-spec.yaml')}&workflow_name=spec-flow`, { method: 'POST' });
    expect(answer).toMatchObject({ status: 200 });
    expect(await requestJson(`${t.management}/models/spec-flow__classifier`)).toMatchObject({ status: 200, body: [{ modelUrl: 's3://models/team/spec-model/' }] });
  });

  it('registers a workflow archive from S3', async () => {
    const registered = await requestJson(`${t.management}/workflows?url=${encodeURIComponent('s3://models/flows/archived-flow.sluice')}`, { method: 'POST' });
    expect(registered).toMatchObject({ status: 200 });
    expect(await requestJson(`${t.management}/workflows/s3-archived-flow`)).toMatchObject({ status: 200 });
  });

  it('restores workflows registered from S3 after a restart without reaching the store', async () => {
    await t.close();
    // With the store unreachable, only the copies kept in .sources/ can give the workflows back.
    const restore = setEnvironment({ AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' });
    try {
      t = await start();
    } finally {
      restore();
    }
    expect(await requestJson(`${t.management}/workflows/s3-flow`)).toMatchObject({ status: 200 });
    expect(await requestJson(`${t.management}/workflows/spec-flow`)).toMatchObject({ status: 200 });
    expect(await requestJson(`${t.management}/workflows/s3-archived-flow`)).toMatchObject({ status: 200 });
    const answer = await requestJson(`${t.inference}/v2/models/s3-flow/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'measurements', shape: [1, 4], datatype: 'FP32', data: [5.1, 3.5, 1.4, 0.2] }] },
    });
    expect(answer).toMatchObject({ status: 200 });
  });

  it('reads a workflow file registered a second time at the same version from its kept copy', async () => {
    expect(await requestJson(`${t.management}/workflows/s3-flow`, { method: 'DELETE' })).toMatchObject({ status: 200 });
    const sources = join(t.config.modelStore, '.sources');
    const kept = (await readdir(sources)).filter((name) => name.startsWith('one-step.yaml-'));
    expect(kept).toHaveLength(1);
    // Only a registration that reads the kept copy, not the object in the store, sees this version.
    const copy = join(sources, kept[0] ?? '', 'workflow.yaml');
    await writeFile(copy, (await readFile(copy, 'utf8')).replace('version: "1.0"', 'version: "1.1"'));
    expect(await requestJson(`${t.management}/workflows?url=${encodeURIComponent('s3://models/flows/one-step.yaml')}`, { method: 'POST' })).toMatchObject({ status: 200 });
    expect(await requestJson(`${t.management}/workflows/s3-flow`)).toMatchObject({ status: 200, body: [{ workflowVersion: '1.1' }] });
  });

  it('loads the S3 sources sluice.yaml lists at start-up', async () => {
    const other = await startTestServer({ demoModels: [], config: { allowedUrls: ALLOWED, models: ['s3://models/team/iris/', 's3://models/archives/mlp.sluice'] } });
    try {
      expect(await requestJson(`${other.management}/models`)).toMatchObject({ status: 200, body: { models: [{ modelName: 'iris' }, { modelName: 'mlp' }] } });
    } finally {
      await other.close();
    }
  });

  it('leaves no temporary behind', async () => {
    const sources = await readdir(join(t.config.modelStore, '.sources'));
    expect(sources.filter((name) => name.startsWith('.tmp-'))).toEqual([]);
    expect(await readdir(join(t.config.modelStore, '.downloads'))).toEqual([]);
  });
});
