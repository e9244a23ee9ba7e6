import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { freePort, runCli, startServerProcess, stopServerProcess, type ServerProcess } from '../support/cli-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, requestJson } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

interface TorchServeKeyFile {
  readonly management: { readonly key: string; readonly 'expiration time': string };
  readonly inference: { readonly key: string; readonly 'expiration time': string };
  readonly API: { readonly key: string };
}

describe('sluice start --ts-config', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let server: ServerProcess | undefined;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-ts-config-'));
    await copyDemoModels(join(dir, 'store'), ['iris']);
  });
  afterEach(async () => {
    await stopServerProcess(server);
    server = undefined;
    await cleanup();
  });

  it("serves on the file's addresses, with its model settings, TorchServe's key file and one warning", async () => {
    const ports = { inference: await freePort(), management: await freePort(), metrics: await freePort(), grpcInference: await freePort(), grpcManagement: await freePort() };
    await writeFile(
      join(dir, 'config.properties'),
      [
        '# a TorchServe configuration',
        `inference_address=http://127.0.0.1:${ports.inference}`,
        `management_address=http://127.0.0.1:${ports.management}`,
        `metrics_address=http://127.0.0.1:${ports.metrics}`,
        `grpc_inference_port=${ports.grpcInference}`,
        `grpc_management_port=${ports.grpcManagement}`,
        'model_store=store',
        'load_models=iris',
        'models={"iris": {"1.0": {"minWorkers": 1, "maxWorkers": 2, "batchSize": 4, "maxBatchDelay": 7, "responseTimeout": 30}}}',
        'number_of_netty_threads=4',
        '',
      ].join('\n'),
    );
    server = startServerProcess(['--ts-config', 'config.properties'], dir);
    const warning = await server.waitForLog((l) => l['level'] === 'warn' && String(l['msg']).startsWith('config.properties: Sluice cannot honour'));
    expect(warning['msg']).toContain('number_of_netty_threads (Sluice has no Netty threads');
    await server.waitForLog((l) => l['msg'] === 'Sluice is serving');

    const keys = JSON.parse(await readFile(join(dir, 'key_file.json'), 'utf8')) as TorchServeKeyFile;
    expect(Object.keys(keys).sort()).toEqual(['API', 'inference', 'management']);
    const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

    expect((await requestJson(`http://127.0.0.1:${ports.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).status).toBe(401);
    expect(await requestJson(`http://127.0.0.1:${ports.inference}/predictions/iris`, { method: 'POST', json: SETOSA, headers: bearer(keys.inference.key) })).toMatchObject({
      status: 200,
    });
    const described = await requestJson(`http://127.0.0.1:${ports.management}/models/iris`, { headers: bearer(keys.management.key) });
    expect(described).toMatchObject({ status: 200, body: [{ modelName: 'iris', modelVersion: '1.0', batchSize: 4, maxBatchDelay: 7, minWorkers: 1, maxWorkers: 2 }] });
    // Without enable_model_api=true, TorchServe's management API neither registers nor unregisters.
    const management = `http://127.0.0.1:${ports.management}`;
    expect(await requestJson(`${management}/models?url=iris`, { method: 'POST', headers: bearer(keys.management.key) })).toMatchObject({
      status: 405,
      body: { errorCode: 'SLUICE_MODEL_API_DISABLED' },
    });
    expect((await requestJson(`${management}/models/iris`, { method: 'DELETE', headers: bearer(keys.management.key) })).status).toBe(405);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('with disable_token_authorization=true, serves without keys and writes no key file', async () => {
    const ports = { inference: await freePort(), management: await freePort(), metrics: await freePort() };
    await writeFile(
      join(dir, 'config.properties'),
      [
        `inference_address=http://127.0.0.1:${ports.inference}`,
        `management_address=http://127.0.0.1:${ports.management}`,
        `metrics_address=http://127.0.0.1:${ports.metrics}`,
        'grpc_inference_port=0',
        'grpc_management_port=0',
        'model_store=store',
        'load_models=all',
        'disable_token_authorization=true',
        '',
      ].join('\n'),
    );
    server = startServerProcess(['--ts-config', 'config.properties'], dir);
    await server.waitForLog((l) => l['msg'] === 'Sluice is serving');
    expect(await requestJson(`http://127.0.0.1:${ports.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200 });
    expect((await requestJson(`http://127.0.0.1:${ports.management}/models`)).status).toBe(200);
    await expect(readFile(join(dir, 'key_file.json'))).rejects.toThrow('ENOENT');
    expect(server.lines.filter((l) => (l as Record<string, unknown>)['level'] === 'warn')).toEqual([]);
  });

  it('without load_models, loads no model at start, as TorchServe', async () => {
    const ports = { inference: await freePort(), management: await freePort(), metrics: await freePort() };
    await writeFile(
      join(dir, 'config.properties'),
      [
        `inference_address=http://127.0.0.1:${ports.inference}`,
        `management_address=http://127.0.0.1:${ports.management}`,
        `metrics_address=http://127.0.0.1:${ports.metrics}`,
        'grpc_inference_port=0',
        'grpc_management_port=0',
        'model_store=store',
        'disable_token_authorization=true',
        '',
      ].join('\n'),
    );
    server = startServerProcess(['--ts-config', 'config.properties'], dir);
    await server.waitForLog((l) => l['msg'] === 'Sluice is serving');
    expect(await requestJson(`http://127.0.0.1:${ports.management}/models`)).toMatchObject({ status: 200, body: { models: [] } });
    expect((await requestJson(`http://127.0.0.1:${ports.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).status).toBe(404);
  });

  it.each([
    ['enable_model_api=true in the file', ['enable_model_api=true'], []],
    ['--enable-model-api on the command line', [], ['--enable-model-api']],
  ])('registers and unregisters models through the API with %s, as TorchServe', async (_how, lines, flags) => {
    const ports = { inference: await freePort(), management: await freePort(), metrics: await freePort() };
    await writeFile(
      join(dir, 'config.properties'),
      [
        `inference_address=http://127.0.0.1:${ports.inference}`,
        `management_address=http://127.0.0.1:${ports.management}`,
        `metrics_address=http://127.0.0.1:${ports.metrics}`,
        'grpc_inference_port=0',
        'grpc_management_port=0',
        'model_store=store',
        'disable_token_authorization=true',
        ...lines,
        '',
      ].join('\n'),
    );
    server = startServerProcess(['--ts-config', 'config.properties', ...flags], dir);
    await server.waitForLog((l) => l['msg'] === 'Sluice is serving');
    const management = `http://127.0.0.1:${ports.management}`;
    expect((await requestJson(`${management}/models?url=iris`, { method: 'POST' })).status).toBe(200);
    expect(await requestJson(`http://127.0.0.1:${ports.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200 });
    expect((await requestJson(`${management}/models/iris`, { method: 'DELETE' })).status).toBe(200);
  });

  it.each([
    ['an unknown key', 'model_store=store\ninference_adress=http://127.0.0.1:8080\n', 'config.properties: unknown TorchServe key `inference_adress` (line 2; did you mean `inference_address`?)'],
    ['a malformed value', 'model_store=store\njob_queue_size=many\n', 'config.properties: line 2: `job_queue_size` must be an integer from 1 to 1000000, got "many"'],
  ])('refuses %s before starting anything, naming the key and the line', async (_name, text, expected) => {
    await writeFile(join(dir, 'config.properties'), text);
    const { code, stderr } = await runCli(['start', '--foreground', '--ts-config', 'config.properties'], dir);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^sluice: .*\[SLUICE_CONFIG_INVALID\]\n$/);
    expect(stderr).toContain(expected);
    await expect(readFile(join(dir, 'key_file.json'))).rejects.toThrow('ENOENT');
  });
});
