import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GatedRuntime } from '../support/gated-runtime.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

interface Described {
  workers: { status: string }[];
  autoscale: { enabled: boolean; decisions: { from: number; to: number; reason: string }[] };
}

/** The autoscaler, driven by a real queue: a held run makes requests wait, then the load goes away. */
describe('autoscaling under load', () => {
  let t: TestServer;
  const runtime = new GatedRuntime((path) => path.includes('/elastic/') || path.includes('/fixed/'));
  const describeModel = async (model = 'elastic'): Promise<Described> => ((await requestJson(`${t.management}/models/${model}`)).body as [Described])[0];
  const until = async (check: (d: Described) => boolean, model = 'elastic'): Promise<Described> => {
    for (;;) {
      const d = await describeModel(model);
      if (check(d)) return d;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const infer = (model = 'elastic'): Promise<unknown> =>
    requestJson(`${t.inference}/v2/models/${model}/infer`, { method: 'POST', json: { inputs: [{ name: 'input', shape: [1], datatype: 'FP32', data: [1] }] } });

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      demoModels: [],
      prepare: async (store) => {
        await addStoreModel(store, 'elastic', (dir) => writeIdentityModel(dir, 'FP32', [-1]), {
          name: 'elastic',
          version: '1',
          workers: { min: 1, max: 2, autoscale: { intervalMs: 100, scaleUpQueueMs: 20, scaleUpAfter: 2, scaleDownIdleMs: 300, cooldownMs: 0 } },
        });
        await addStoreModel(store, 'from-zero', (dir) => writeIdentityModel(dir, 'FP32', [-1]), {
          name: 'from-zero',
          version: '1',
          workers: { min: 0, max: 1, autoscale: { intervalMs: 100, scaleDownIdleMs: 300, cooldownMs: 0 } },
        });
        await addStoreModel(store, 'fixed', (dir) => writeIdentityModel(dir, 'FP32', [-1]), {
          name: 'fixed',
          version: '1',
          workers: { min: 1, max: 1, autoscale: { intervalMs: 100, scaleUpQueueMs: 20, scaleUpAfter: 2, scaleDownIdleMs: 60_000, cooldownMs: 0 } },
        });
      },
    });
  });
  afterAll(async () => {
    runtime.release();
    await t.close();
  });

  it('adds a worker when requests keep waiting, then removes it once idle, and shows why', async () => {
    runtime.hold();
    const load = [infer(), infer(), infer()];
    const scaledUp = await until((d) => d.workers.length === 2);
    expect(scaledUp.autoscale.decisions[0]).toMatchObject({ from: 1, to: 2, reason: expect.stringMatching(/^queue time [\d.]+ ms stayed above 20 ms for 2 looks$/) as unknown });
    runtime.release();
    await Promise.all(load);
    const scaledDown = await until((d) => d.workers.length === 1);
    expect(scaledDown.autoscale.decisions.at(-1)).toMatchObject({ from: 2, to: 1, reason: expect.stringMatching(/^workers idle for \d+ ms$/) as unknown });
  });

  it('starts a worker for a request to a model scaled to zero by its min of 0, answers it, and removes the worker once idle', async () => {
    const before = await describeModel('from-zero');
    const ready = await requestJson(`${t.inference}/v2/models/from-zero/ready`);
    const answer = await infer('from-zero');
    const after = await describeModel('from-zero');
    const idle = await until((d) => d.workers.length === 0, 'from-zero');
    expect({
      before: [before.workers.length, before.autoscale.enabled],
      ready: [ready.status, ready.body],
      answer: (answer as { status: number }).status,
      woken: after.autoscale.decisions[0],
      left: idle.autoscale.decisions.at(-1),
    }).toEqual({
      before: [0, true],
      ready: [200, { name: 'from-zero', ready: true }],
      answer: 200,
      woken: expect.objectContaining({ from: 0, to: 1, reason: 'a request arrived while no worker ran' }) as unknown,
      left: expect.objectContaining({ from: 1, to: 0, reason: expect.stringMatching(/^workers idle for \d+ ms$/) as unknown }) as unknown,
    });
  });

  it('keeps a model scaled to zero through the management API at zero, its manifest min of 0 or not, until it is scaled up', async () => {
    await requestJson(`${t.management}/models/from-zero?min_worker=0&synchronous=true`, { method: 'PUT' });
    const held = (await infer('from-zero')) as { status: number; body: { errorCode: string } };
    const ready = await requestJson(`${t.inference}/v2/models/from-zero/ready`);
    const described = (await requestJson(`${t.management}/models/from-zero`)).body as [{ status: string; autoscale: { enabled: boolean } }];
    await requestJson(`${t.management}/models/from-zero?min_worker=1&synchronous=true`, { method: 'PUT' });
    const again = (await infer('from-zero')) as { status: number };
    expect([held.status, held.body.errorCode, ready.status, again.status]).toEqual([503, 'SLUICE_MODEL_NO_WORKERS', 503, 200]);
    // Described as it behaves: no worker, none started by a request, no autoscaling until it is scaled up.
    expect([described[0].status, described[0].autoscale.enabled]).toEqual(['NO_WORKERS', false]);
  });

  it('removes the extra worker under a light load whose requests never wait', async () => {
    runtime.hold();
    const load = [infer(), infer(), infer()];
    await until((d) => d.workers.length === 2);
    runtime.release();
    await Promise.all(load);
    // One request every 50 ms keeps the workers all but idle for well over scaleDownIdleMs (300 ms).
    const deadline = performance.now() + 3000;
    let workers = 2;
    while (workers === 2 && performance.now() < deadline) {
      await infer();
      await new Promise((resolve) => setTimeout(resolve, 50));
      workers = (await describeModel()).workers.length;
    }
    expect(workers).toBe(1);
  });

  it('turns autoscaling on when max_worker is raised above min, and shows it', async () => {
    const before = await describeModel('fixed');
    await requestJson(`${t.management}/models/fixed?max_worker=2&synchronous=true`, { method: 'PUT' });
    const after = await describeModel('fixed');
    expect([before.autoscale.enabled, after.autoscale.enabled]).toEqual([false, true]);
  });

  it('adds a worker under load to a model whose max_worker was raised above min', async () => {
    await requestJson(`${t.management}/models/fixed?max_worker=2&synchronous=true`, { method: 'PUT' });
    runtime.hold();
    const load = [infer('fixed'), infer('fixed'), infer('fixed')];
    // Two looks of 100 ms above 20 ms are enough; three seconds leave room for a slow machine.
    const deadline = performance.now() + 3000;
    let described = await describeModel('fixed');
    while (described.workers.length < 2 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      described = await describeModel('fixed');
    }
    runtime.release();
    await Promise.all(load);
    expect([described.workers.length, described.autoscale.decisions.at(-1)]).toMatchObject([2, { from: 1, to: 2 }]);
  });
});
