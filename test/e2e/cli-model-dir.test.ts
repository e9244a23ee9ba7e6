import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { freePort, runCli, startServerProcess, stopServerProcess, type ServerProcess } from '../support/cli-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, requestJson } from '../support/test-server.js';

/** 64 features for the demo MLP. */
const FEATURES = Array.from({ length: 64 }, (_, i) => (i % 10) / 10);

const inferBody = { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: FEATURES }] };

/** A config with ephemeral ports, a store in `dir`, and quiet logs. */
async function writeConfig(dir: string): Promise<string> {
  const file = join(dir, 'sluice.yaml');
  await writeFile(
    file,
    [
      'inference: { port: 0 }',
      'management: { port: 0 }',
      'metrics: { port: 0 }',
      'grpc: { inference: { port: 0 }, management: { port: 0 } }',
      'modelStore: ./model-store',
      'workflowStore: ./workflows',
      'snapshot: { file: ./state/snapshot.json }',
      '',
    ].join('\n'),
  );
  return file;
}

/** A directory holding only the demo MLP's `model.onnx`, as KServe's storage initializer lays out `/mnt/models`. */
async function bareModelDirectory(dir: string): Promise<string> {
  const models = join(dir, 'mnt-models');
  await mkdir(models);
  await copyFile(join(packageRoot(), 'model-store', 'mlp', 'model.onnx'), join(models, 'model.onnx'));
  return models;
}

async function inferenceUrl(server: ServerProcess): Promise<string> {
  return (await server.waitForLog((l) => l['msg'] === 'listening' && l['port'] === 'inference'))['url'] as string;
}

describe('sluice start --model-dir --model-name', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let server: ServerProcess | undefined;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-model-dir-'));
    await mkdir(join(dir, 'model-store'));
  });
  afterEach(async () => {
    await stopServerProcess(server);
    server = undefined;
    await cleanup();
  });

  it('serves a directory holding only model.onnx under the given name: OIP infer answers as the same model from the store does', async () => {
    await copyDemoModels(join(dir, 'model-store'), ['mlp']);
    const models = await bareModelDirectory(dir);
    server = startServerProcess(['--config', await writeConfig(dir), '--model-dir', models, '--model-name', 'digits'], dir);
    const inference = await inferenceUrl(server);
    const fromDir = await requestJson(`${inference}/v2/models/digits/infer`, { method: 'POST', json: inferBody });
    const fromStore = await requestJson(`${inference}/v2/models/mlp/infer`, { method: 'POST', json: inferBody });
    expect(fromDir.status).toBe(200);
    expect((fromDir.body as { outputs: unknown }).outputs).toEqual((fromStore.body as { outputs: unknown }).outputs);
  });

  it('describes the model made for the directory: version 1, the model file’s input and output', async () => {
    server = startServerProcess(['--config', await writeConfig(dir), '--model-dir', await bareModelDirectory(dir), '--model-name', 'digits'], dir);
    const metadata = await requestJson(`${await inferenceUrl(server)}/v2/models/digits`);
    expect(metadata).toMatchObject({
      status: 200,
      body: {
        name: 'digits',
        versions: ['1'],
        inputs: [{ name: 'input', datatype: 'FP32', shape: [-1, 64] }],
        outputs: [{ name: 'output', datatype: 'FP32', shape: [-1, 10] }],
      },
    });
  });

  it('opens the ports KServe expects when told so by flags: HTTP 8080-style and gRPC 8081-style, management moved aside', async () => {
    const [http, grpc, management] = [await freePort(), await freePort(), await freePort()];
    const args = ['--config', await writeConfig(dir), '--model-dir', await bareModelDirectory(dir), '--model-name', 'digits'];
    server = startServerProcess([...args, `--inference-port=${http}`, `--grpc-inference-port=${grpc}`, `--management-port=${management}`], dir);
    const serving = await server.waitForLog((l) => l['msg'] === 'Sluice is serving');
    expect(serving).toMatchObject({
      inference: `http://127.0.0.1:${http}`,
      management: `http://127.0.0.1:${management}`,
      grpcInference: `127.0.0.1:${grpc}`,
    });
  });

  it('refuses --model-dir without --model-name, naming the flags, before starting anything', async () => {
    const result = await runCli(['start', '--foreground', '--config', await writeConfig(dir), '--model-dir', await bareModelDirectory(dir)], dir);
    expect(result).toMatchObject({ code: 1 });
    expect(result.stderr).toBe(
      'sluice: command-line flags: `modelDir` is set but `modelName` is not; they go together: `modelDir` the model directory, `modelName` the name it is served under (or neither) [SLUICE_CONFIG_INVALID]\n',
    );
  });

  it('stops the start, exit status 1, when the directory holds nothing to serve, saying what it holds', async () => {
    const empty = join(dir, 'mnt-models');
    await mkdir(empty);
    await writeFile(join(empty, 'weights.bin'), 'bytes');
    const result = await runCli(['start', '--foreground', '--config', await writeConfig(dir), '--model-dir', empty, '--model-name', 'digits'], dir);
    expect(result).toMatchObject({ code: 1 });
    expect(result.stderr).toBe(
      `sluice: command-line flags: \`modelDir\` cannot be served as model \`digits\`: ${empty}: holds neither model.yaml nor model.onnx (it holds weights.bin); put the ONNX model there as model.onnx, or describe it in a model.yaml [SLUICE_CONFIG_INVALID]\n`,
    );
  });

  it('refuses a model name that an entry of the model store has too, naming the variable that set it', async () => {
    await copyDemoModels(join(dir, 'model-store'), ['mlp']);
    const result = await runCli(['start', '--foreground', '--config', await writeConfig(dir)], dir, { SLUICE_MODEL_DIR: await bareModelDirectory(dir), SLUICE_MODEL_NAME: 'mlp' });
    expect(result).toMatchObject({ code: 1 });
    expect(result.stderr).toBe(
      `sluice: SLUICE_MODEL_NAME: \`modelName\` "mlp" is also the name of ${join(dir, 'model-store', 'mlp')} in the model store; serve the model directory under another name, or take that entry out of the store [SLUICE_CONFIG_INVALID]\n`,
    );
  });
});
