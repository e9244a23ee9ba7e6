import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { dump, load as loadYaml, loadAll } from 'js-yaml';
import { packageRoot } from '../../src/package-files/package-root.js';
import { freePort, runCli } from '../support/cli-process.js';
import { describeWithTools } from '../support/deploy/deploy-tools.js';
import { buildSluiceImage, podman, startContainer, untilAnswers, type Container } from '../support/deploy/podman.js';
import { succeeded } from '../support/deploy/run-process.js';
import type { IClusterServingRuntime } from '../support/deploy/kserve-types.js';
import { grpcClient, unary } from '../support/grpc-clients.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson } from '../support/test-server.js';

// Starting a container and loading its models takes seconds, many on a busy machine.
jest.setTimeout(300_000);

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const FEATURES = Array.from({ length: 64 }, (_, i) => (i % 10) / 10);
const MLP_MODEL = join(packageRoot(), 'model-store', 'mlp', 'model.onnx');

/** A temp directory the container's user (uid 1000) may read. */
async function sharedTempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const temp = await makeTempDir(prefix);
  await chmod(temp.dir, 0o755);
  return temp;
}

/** Runs `script` with sh in a throw-away container of the image and answers what it printed. */
async function inImage(script: string): Promise<string> {
  return succeeded('podman run', await podman(['run', '--rm', '--entrypoint', 'sh', 'localhost/sluice:test', '-c', script]));
}

describeWithTools('Sluice’s container image', ['podman'], () => {
  beforeAll(async () => {
    await buildSluiceImage();
  }, 45 * 60_000);

  describe('what it holds', () => {
    it('runs as uid 1000, not root', async () => {
      expect((await inImage('id -u; id -g')).split('\n')).toEqual(['1000', '1000', '']);
    });

    it('ships the server, its plugins and demo models, without tests, docs, sources or .git', async () => {
      expect((await inImage('ls -A /opt/sluice')).trim().split('\n')).toEqual(['LICENSE', 'bin', 'dist', 'model-store', 'node_modules', 'package.json', 'plugins', 'proto', 'schemas', 'workflows']);
    });

    it('ships compiled JavaScript only: no TypeScript sources under dist or plugins', async () => {
      expect(await inImage("find /opt/sluice/dist /opt/sluice/plugins -name '*.ts' | head -5")).toBe('');
    });

    it('ships none of the packages only the build and the tests need', async () => {
      // The lock file marks them `dev`: the dev dependencies and what only they bring in.
      const lock = JSON.parse(await readFile(join(packageRoot(), 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
      const devOnly = Object.entries(lock.packages)
        .filter(([path, entry]) => entry.dev === true && /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path))
        .map(([path]) => path.slice('node_modules/'.length));
      const installed = (await inImage('cd /opt/sluice/node_modules && ls -d * @*/*')).trim().split('\n');
      expect({ devOnly: devOnly.length > 100, shipped: devOnly.filter((name) => installed.includes(name)) }).toEqual({ devOnly: true, shipped: [] });
    });

    it('ships ONNX Runtime for linux/amd64 only', async () => {
      expect(await inImage('cd /opt/sluice/node_modules/onnxruntime-node/bin/napi-v6 && ls -d */*')).toBe('linux/x64\n');
    });
  });

  describe('serving the demo models', () => {
    let container: Container;
    let url = '';
    beforeAll(async () => {
      const port = await freePort();
      container = await startContainer({ env: { SLUICE_MODEL_STORE: '/opt/sluice/model-store', SLUICE_MODELS: 'iris' }, publish: { 8080: port } });
      url = `http://127.0.0.1:${port}`;
      await untilAnswers(`${url}/v2/health/ready`, container);
    });
    afterAll(async () => {
      await container.remove();
    });

    it('runs Sluice itself as PID 1, so signals reach it', async () => {
      const cmdline = succeeded('podman exec', await podman(['exec', container.name, 'cat', '/proc/1/cmdline']));
      expect(cmdline.split('\0').filter((part) => part !== '')).toEqual(['node', '/opt/sluice/bin/sluice.js', 'start', '--foreground']);
    });

    it('answers /ping Healthy', async () => {
      expect(await requestJson(`${url}/ping`)).toMatchObject({ status: 200, body: { status: 'Healthy' } });
    });

    it('answers the readiness route', async () => {
      expect(await requestJson(`${url}/v2/health/ready`)).toMatchObject({ status: 200, body: { ready: true } });
    });

    it('answers a prediction', async () => {
      expect(await requestJson(`${url}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200, body: { label: 'setosa' } });
    });
  });

  it('drains on SIGTERM: refuses new connections, answers the request in flight, and exits 0 by itself', async () => {
    const temp = await sharedTempDir('sluice-drain-');
    try {
      // A handler that holds each request until /gate/release exists, and says when one has reached it.
      await writePluginFolder(
        join(temp.dir, 'plugin'),
        { name: 'gate', provides: [{ point: 'handler', name: 'gate' }] },
        [
          "import { existsSync, writeFileSync } from 'node:fs';",
          'export default { register(c) { c.handler({',
          "  name: 'gate',",
          '  async preprocess(requests) {',
          "    writeFileSync('/gate/reached', '');",
          "    while (!existsSync('/gate/release')) await new Promise((resolve) => setTimeout(resolve, 20));",
          "    return requests.map(() => ({ inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: new Float32Array(64) }] }));",
          '  },',
          "  async postprocess(results) { return results.map(() => 'answered after the gate opened'); },",
          '}); } };',
        ].join('\n'),
      );
      await mkdir(join(temp.dir, 'models', 'gated'), { recursive: true });
      await copyFile(MLP_MODEL, join(temp.dir, 'models', 'gated', 'model.onnx'));
      await writeFile(join(temp.dir, 'models', 'gated', 'model.yaml'), 'name: gated\nversion: "1"\nmodel: model.onnx\nhandler: gate\n');
      await mkdir(join(temp.dir, 'gate'), { mode: 0o777 });
      await chmod(join(temp.dir, 'gate'), 0o777);
      // The image's own sluice.yaml, with the plugin: mounted over it, as a ConfigMap would be.
      const config = loadYaml(await readFile(join(packageRoot(), 'deploy', 'container', 'sluice.yaml'), 'utf8')) as { plugins: unknown[] };
      config.plugins.push({ path: '/plugins/gate' });
      await writeFile(join(temp.dir, 'sluice.yaml'), dump(config));

      const port = await freePort();
      const container = await startContainer({
        publish: { 8080: port },
        volumes: [`${join(temp.dir, 'sluice.yaml')}:/etc/sluice/sluice.yaml:ro`, `${join(temp.dir, 'plugin')}:/plugins/gate:ro`, `${join(temp.dir, 'models')}:/models:ro`, `${join(temp.dir, 'gate')}:/gate`],
      });
      try {
        const url = `http://127.0.0.1:${port}`;
        await untilAnswers(`${url}/v2/health/ready`, container);
        const inFlight = requestJson(`${url}/predictions/gated`, { method: 'POST', json: [1] });
        while (!existsSync(join(temp.dir, 'gate', 'reached'))) await new Promise((resolve) => setTimeout(resolve, 50));
        await container.signal('SIGTERM');
        // The listeners close: a probe or a new client is refused from now on.
        while (await fetch(`${url}/v2/health/ready`).then(() => true, () => false)) await new Promise((resolve) => setTimeout(resolve, 50));
        await writeFile(join(temp.dir, 'gate', 'release'), '');
        expect(await inFlight).toMatchObject({ status: 200, body: 'answered after the gate opened' });
        expect(await container.exited()).toBe(0);
        expect(await container.logs()).toContain('"drained":true,"msg":"stopped"');
      } finally {
        await container.remove();
      }
    } finally {
      await temp.cleanup();
    }
  });

  it('exits 1 on a bad configuration, with the message sluice start prints', async () => {
    const container = await startContainer({ env: { SLUICE_INFERENCE_PORT: 'http' } });
    try {
      const exitCode = await container.exited();
      const local = await makeTempDir('sluice-bad-config-');
      try {
        const expected = await runCli(['start', '--foreground'], local.dir, { SLUICE_INFERENCE_PORT: 'http' });
        expect({ exitCode, output: await container.logs() }).toEqual({ exitCode: expected.code, output: expected.stderr });
        expect(expected).toMatchObject({ code: 1, stderr: 'sluice: SLUICE_INFERENCE_PORT: `inference.port` must be integer (got "http") [SLUICE_CONFIG_INVALID]\n' });
      } finally {
        await local.cleanup();
      }
    } finally {
      await container.remove();
    }
  });

  it('serves, as deploy/kserve’s runtime starts it, a /mnt/models holding only model.onnx: OIP over REST on 8080 and gRPC on 8081', async () => {
    const runtime = (loadAll(await readFile(join(packageRoot(), 'deploy', 'kserve', 'cluster-serving-runtime.yaml'), 'utf8'))[0] as IClusterServingRuntime).spec.containers[0];
    const temp = await sharedTempDir('sluice-kserve-');
    try {
      await mkdir(join(temp.dir, 'models'), { mode: 0o755 });
      await chmod(join(temp.dir, 'models'), 0o755);
      await copyFile(MLP_MODEL, join(temp.dir, 'models', 'model.onnx'));
      await chmod(join(temp.dir, 'models', 'model.onnx'), 0o644);
      const [http, grpc] = [await freePort(), await freePort()];
      const container = await startContainer({
        args: (runtime?.args ?? []).map((arg) => arg.replace('{{.Name}}', 'digits')),
        env: Object.fromEntries((runtime?.env ?? []).map((e) => [e.name, e.value ?? ''])),
        publish: { 8080: http, 8081: grpc },
        volumes: [`${join(temp.dir, 'models')}:/mnt/models:ro`],
      });
      try {
        await untilAnswers(`http://127.0.0.1:${http}/v2/models/digits/ready`, container);
        const rest = await requestJson(`http://127.0.0.1:${http}/v2/models/digits/infer`, {
          method: 'POST',
          json: { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: FEATURES }] },
        });
        const client = grpcClient('oip', `127.0.0.1:${grpc}`);
        try {
          const answer = await unary<{ outputs: { name: string; shape: string[]; contents: { fp32_contents: number[] } }[] }>(client, 'ModelInfer', {
            model_name: 'digits',
            inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], contents: { fp32_contents: FEATURES } }],
          });
          const restOutput = (rest.body as { outputs: { name: string; shape: number[]; data: number[] }[] }).outputs[0];
          expect({ status: rest.status, shape: restOutput?.shape }).toEqual({ status: 200, shape: [1, 10] });
          expect(answer.outputs.map((o) => ({ name: o.name, data: o.contents.fp32_contents }))).toEqual([{ name: 'output', data: restOutput?.data }]);
        } finally {
          client.close();
        }
      } finally {
        await container.remove();
      }
    } finally {
      await temp.cleanup();
    }
  });
});
