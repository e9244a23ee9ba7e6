import { hostname } from 'node:os';
import { describe, expect, it } from '@jest/globals';
import { GpuReadings } from '../../../../src/telemetry/metrics/gpu-readings.js';
import { PrometheusServingMetrics } from '../../../../src/telemetry/metrics/prometheus-serving-metrics.js';
import { TorchServeHostMetrics } from '../../../../src/telemetry/metrics/torchserve-host-metrics.js';
import { Telemetry } from '../../../../src/telemetry/tracing/telemetry.js';

const HOST = `Level="Host",Hostname="${hostname()}"`;

function lines(page: string, prefix: string): string[] {
  return page.split('\n').filter((l) => l.startsWith(prefix));
}

describe('TorchServe’s frontend and system metrics', () => {
  it('counts answers by status class, 1xx and 3xx in none', async () => {
    const metrics = new PrometheusServingMetrics(new Telemetry(), { torchserveHostMetrics: true });
    for (const status of [200, 204, 301, 404, 499, 503, 101]) metrics.httpAnswered(status);
    const page = (await metrics.scrape()).body;
    expect(lines(page, 'Requests')).toEqual([`Requests2XX{${HOST}} 2`, `Requests4XX{${HOST}} 2`, `Requests5XX{${HOST}} 1`]);
  });

  it('keeps a page without them unless asked', async () => {
    const metrics = new PrometheusServingMetrics(new Telemetry());
    metrics.httpAnswered(200);
    expect((await metrics.scrape()).body).not.toMatch(/^(Requests2XX|CPUUtilization)/m);
  });

  it('reports GPU figures per CUDA device a worker runs on, labelled DeviceId', async () => {
    const telemetry = new Telemetry();
    let asked = 0;
    const host = new TorchServeHostMetrics(
      telemetry,
      () => [
        { model: 'm', version: '1', instance: 'm-1-1', utilization: 0, device: 'cuda:1', loadMs: 5 },
        { model: 'c', version: '1', instance: 'c-1-1', utilization: 0, device: 'cpu', loadMs: 5 },
      ],
      new GpuReadings(() => {
        asked += 1;
        return Promise.resolve('0, 90, 1, 10\n1, 40, 512, 1024\n');
      }),
    );
    await host.refreshGpus();
    const page = await telemetry.prometheusText();
    expect({ asked, gpu: lines(page, 'GPU') }).toEqual({
      asked: 1,
      gpu: [
        `GPUUtilization{Level="Host",DeviceId="1",Hostname="${hostname()}"} 40`,
        `GPUMemoryUsed{Level="Host",DeviceId="1",Hostname="${hostname()}"} 512`,
        `GPUMemoryUtilization{Level="Host",DeviceId="1",Hostname="${hostname()}"} 50`,
      ],
    });
  });

  it('reports the latest request’s queue time and its time after the queue, in milliseconds', async () => {
    const telemetry = new Telemetry();
    const host = new TorchServeHostMetrics(telemetry, () => []);
    host.requestServed(5000, 1500);
    host.requestServed(3000, 1000);
    host.requestServed(9000, undefined);
    const page = await telemetry.prometheusText();
    expect([...lines(page, 'QueueTime'), ...lines(page, 'WorkerThreadTime')]).toEqual([`QueueTime{${HOST}} 1`, `WorkerThreadTime{${HOST}} 2`]);
  });
});
