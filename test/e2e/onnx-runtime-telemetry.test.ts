import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../support/cli-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, requestJson } from '../support/test-server.js';

const inferBody = { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: Array.from({ length: 64 }, (_, i) => (i % 10) / 10) }] };

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

describe('ONNX Runtime telemetry', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let server: ServerProcess | undefined;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-ort-telemetry-'));
    await Promise.all([mkdir(join(dir, 'model-store')), mkdir(join(dir, 'home')), mkdir(join(dir, 'tmp'))]);
    await copyDemoModels(join(dir, 'model-store'), ['mlp']);
    await writeFile(join(dir, 'sluice.yaml'), ['inference: { port: 0 }', 'management: { port: 0 }', 'metrics: { port: 0 }', 'modelStore: ./model-store', 'snapshot: { enabled: false }', ''].join('\n'));
  });
  afterEach(async () => {
    await stopServerProcess(server);
    server = undefined;
    await cleanup();
  });

  // ONNX Runtime (1.29 and later) starts its telemetry, writing a device id and an event cache under
  // $HOME/.cache and a mat-debug-<pid>.log in $TMPDIR, unless ORT_DISABLE_TELEMETRY is true or a CI
  // variable is set: the server gets a home and a temporary folder of its own and no CI variable.
  it('leaves it off unasked: a server that loaded a model and ran it writes nothing to its home or temporary folder', async () => {
    server = startServerProcess(['--config', join(dir, 'sluice.yaml')], dir, { HOME: join(dir, 'home'), TMPDIR: join(dir, 'tmp') });
    const listening = await server.waitForLog((line) => line['msg'] === 'listening' && line['port'] === 'inference');
    const answer = await requestJson(`${String(listening['url'])}/v2/models/mlp/infer`, { method: 'POST', json: inferBody });
    expect(answer.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect({ home: await filesUnder(join(dir, 'home')), tmp: await filesUnder(join(dir, 'tmp')) }).toEqual({ home: [], tmp: [] });
  });
});
