import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { memoryLogger, requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/** This machine has no GPU: the GPU executor must fall back to the CPU provider, say why, and serve. */
describe('GPU executor without a GPU', () => {
  let t: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['mlp'],
      logger: memoryLogger(lines),
      prepare: async (store) => {
        await addStoreModel(store, 'mlp-gpu', async (dir) => {
          const { copyFile } = await import('node:fs/promises');
          await copyFile(`${store}/mlp/model.onnx`, `${dir}/model.onnx`);
          return `${dir}/model.onnx`;
        }, { name: 'mlp-gpu', version: '1', executor: 'gpu', device: 'gpu' });
        await addStoreModel(store, 'cuda-only-gpu', (dir) => writeIdentityModel(dir, 'FP32', [-1, 2]), {
          name: 'cuda-only-gpu',
          version: '1',
          executor: 'gpu',
          device: 'gpu',
          executorOptions: { executionProviders: ['cuda'] },
        });
        await addStoreModel(store, 'fixed-gpu', (dir) => writeIdentityModel(dir, 'FP32', [1, 2]), { name: 'fixed-gpu', version: '1', executor: 'gpu', device: 'gpu' });
        await addStoreModel(store, 'fixed-gpu-asked', (dir) => writeIdentityModel(dir, 'FP32', [1, 2]), {
          name: 'fixed-gpu-asked',
          version: '1',
          executor: 'gpu',
          device: 'gpu',
          batching: { maxBatchSize: 8 },
        });
        await addStoreModel(store, 'cuda-only-cpu', (dir) => writeIdentityModel(dir, 'FP32', [-1, 2]), {
          name: 'cuda-only-cpu',
          version: '1',
          runtimeOptions: { executionProviders: ['cuda'] },
        });
        await addStoreModel(store, 'half', (dir) => writeIdentityModel(dir, 'FP16', [-1, 2]), {
          name: 'half',
          version: '1',
          executor: 'gpu',
          device: 'gpu',
          executorOptions: { fp16OutputsAsFp32: true },
        });
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('falls back to the CPU provider and logs which provider is active and why the others are not', () => {
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['model'] === 'mlp-gpu');
    const report = logged.find((l) => typeof l['msg'] === 'string' && l['msg'].includes('cpu'));
    expect(report).toBeDefined();
    expect(JSON.stringify(report)).toMatch(/cuda/);
    expect(JSON.stringify(report)).toMatch(/webgpu/);
  });

  it.each(['cuda-only-gpu', 'cuda-only-cpu'])('warns with the runtime’s reason when %s, which lists only cuda, falls back to the CPU provider', (model) => {
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['model'] === model && l['level'] === 'warn');
    expect(logged).toMatchObject([
      { msg: expect.stringMatching(/^execution provider cpu on cpu; not used: cuda: ./) as unknown, preference: ['cuda'], notUsed: { cuda: expect.any(String) as unknown } },
    ]);
  });

  it('keeps a model that cannot batch at batch size 1 without a warning, when its manifest asks for no batching', async () => {
    const warned = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['model'] === 'fixed-gpu' && String(l['msg']).startsWith('batching is off'));
    const [described] = (await requestJson(`${t.management}/models/fixed-gpu`)).body as [Record<string, unknown>];
    expect([warned, described['batchSize']]).toEqual([[], 1]);
  });

  it('warns that batching is off for a model that cannot batch when its manifest asks for batches', () => {
    const warned = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['model'] === 'fixed-gpu-asked' && String(l['msg']).startsWith('batching is off'));
    expect(warned).toMatchObject([{ level: 'warn', maxBatchSize: 8 }]);
  });

  it('serves through the GPU executor with its larger default batch size', async () => {
    const [described] = (await requestJson(`${t.management}/models/mlp-gpu`)).body as [Record<string, unknown>];
    expect(described).toMatchObject({ executor: 'gpu', executionProvider: 'cpu', batching: { maxBatchSize: 32, maxBatchDelayMs: 2 } });
    const answer = await requestJson(`${t.inference}/predictions/mlp-gpu`, { method: 'POST', json: Array.from({ length: 64 }, () => 0.25) });
    const reference = await requestJson(`${t.inference}/predictions/mlp`, { method: 'POST', json: Array.from({ length: 64 }, () => 0.25) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(reference.body);
  });

  it('takes FP32 data for an FP16 model and can answer FP32', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/half/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'input', shape: [1, 2], datatype: 'FP32', data: [1.5, -2] }] },
    });
    expect(answer).toMatchObject({ status: 200, body: { outputs: [{ name: 'output', datatype: 'FP32', shape: [1, 2], data: [1.5, -2] }] } });
  });
});
