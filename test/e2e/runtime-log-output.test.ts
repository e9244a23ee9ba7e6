import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startServerProcess } from '../support/cli-process.js';
import { writeLookupModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson } from '../support/test-server.js';

/**
 * ONNX Runtime writes a line to the process's stderr for every failed run unless told not to. A client
 * whose values make runs fail would then write unstructured lines into the server's output at will; its
 * error reaches it in the answer, and that is where it belongs.
 */
describe('ONNX Runtime output of the built server', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-ort-log-'));
    const store = join(dir, 'model-store');
    await mkdir(store);
    await addStoreModel(store, 'lookup-cpu', writeLookupModel, { name: 'lookup-cpu', version: '1' });
    await addStoreModel(store, 'lookup-gpu', writeLookupModel, {
      name: 'lookup-gpu',
      version: '1',
      executor: 'gpu',
      executorOptions: { executionProviders: ['cpu'] },
    });
    await writeFile(
      join(dir, 'sluice.yaml'),
      ['inference: { port: 0 }', 'management: { port: 0 }', 'metrics: { port: 0 }', 'grpc: { enabled: false }', 'modelStore: ./model-store', ''].join('\n'),
    );
  });
  afterEach(async () => {
    await cleanup();
  });

  it('writes nothing to stderr when runs fail on a request’s values, on either executor', async () => {
    const server = startServerProcess(['--config', join(dir, 'sluice.yaml'), '--no-snapshot'], dir);
    let stderr = '';
    server.child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const listening = await server.waitForLog((l) => l['msg'] === 'listening' && l['port'] === 'inference');
    await server.waitForLog((l) => l['msg'] === 'Sluice is serving');
    const infer = (model: string): Promise<number> =>
      requestJson(`${listening['url'] as string}/v2/models/${model}/infer`, {
        method: 'POST',
        json: { inputs: [{ name: 'ids', shape: [1], datatype: 'INT64', data: [99] }] },
      }).then((answer) => answer.status);
    const statuses = [await infer('lookup-cpu'), await infer('lookup-gpu')];
    server.child.kill('SIGTERM');
    expect({ statuses, exit: await server.exited, stderr }).toEqual({ statuses: [500, 500], exit: 0, stderr: '' });
  }, 30_000);
});
