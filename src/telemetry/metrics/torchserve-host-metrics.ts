import { hostname } from 'node:os';
import { InstrumentType } from '@opentelemetry/sdk-metrics';
import type { Telemetry } from '../tracing/telemetry.js';
import { GpuReadings } from './gpu-readings.js';
import { HostReadings } from './host-readings.js';
import { nowHrTime } from './hr-now.js';
import type { InstanceUtilization } from './serving-metrics.js';

/** The metric names TorchServe's counters have on its page; Prometheus's exporter adds `_total` to them. */
export const TORCHSERVE_HOST_COUNTERS = ['Requests2XX', 'Requests4XX', 'Requests5XX'] as const;

/** What the page says of a metric: TorchServe's unit, in its words. */
const withUnit = (text: string, unit: string): string => `${text} (unit: ${unit}).`;

/**
 * TorchServe's frontend and system metrics under their names and labels (`Level="Host"`, `Hostname`), so
 * that dashboards made for TorchServe read Sluice's page: the answer counters `Requests2XX`/`4XX`/`5XX`
 * (every HTTP answer of the three ports, as TorchServe counts them), `QueueTime` and `WorkerThreadTime`
 * (of the latest request), `WorkerLoadTime` per worker, the host's CPU, memory and disk figures (read at
 * each scrape, not on a timer) and, while a model runs on a CUDA device, `GPUUtilization`,
 * `GPUMemoryUsed` and `GPUMemoryUtilization` per device from `nvidia-smi`. None of them belongs to a model
 * version, so they stay on the page when the last model is unregistered.
 */
export class TorchServeHostMetrics {
  private readonly labels = { Level: 'Host', Hostname: hostname() };
  private readonly since = nowHrTime();
  private readonly answers = { Requests2XX: 0, Requests4XX: 0, Requests5XX: 0 };
  private lastQueueMs: number | undefined;
  private lastWorkerThreadMs: number | undefined;
  private readonly host = new HostReadings();
  private readonly gpus: GpuReadings;

  constructor(
    telemetry: Telemetry,
    private readonly instances: () => readonly InstanceUtilization[],
    gpus?: GpuReadings,
  ) {
    this.gpus = gpus ?? new GpuReadings();
    for (const name of TORCHSERVE_HOST_COUNTERS) {
      const kind = name.slice('Requests'.length);
      telemetry.sums.define(
        { name, description: withUnit(`HTTP answers with a ${kind} status, of every port`, 'Count'), instrument: InstrumentType.OBSERVABLE_COUNTER },
        () => (this.answers[name] > 0 ? [{ value: this.answers[name], attributes: this.labels, startTime: this.since }] : []),
      );
    }
    const gauge = (name: string, description: string, read: () => number | undefined): void => {
      telemetry.gauges.define({ name, description }, () => {
        const value = read();
        return value === undefined ? [] : [{ value, attributes: this.labels }];
      });
    };
    gauge('QueueTime', withUnit('Time the latest inference request waited in its model’s queue', 'Milliseconds'), () => this.lastQueueMs);
    gauge(
      'WorkerThreadTime',
      withUnit('Time the latest inference request was served after leaving the queue: handler stages and its model run (Sluice has no separate worker process)', 'Milliseconds'),
      () => this.lastWorkerThreadMs,
    );
    telemetry.gauges.define({ name: 'WorkerLoadTime', description: withUnit('Time each worker took from its start to its first readiness', 'Milliseconds') }, () =>
      this.instances().flatMap((i) => (i.loadMs === undefined ? [] : [{ value: i.loadMs, attributes: { WorkerName: i.instance, ...this.labels } }])),
    );
    // Read once per collection: the first gauge of the host reads it, the others use that reading.
    let reading = this.host.read();
    const hostGauge = (name: string, description: string, value: () => number | undefined, first = false): void => {
      gauge(name, description, () => {
        if (first) reading = this.host.read();
        return value();
      });
    };
    hostGauge('CPUUtilization', withUnit('CPU busy share of the host since the previous scrape', 'Percent'), () => reading.cpuUtilizationPercent, true);
    hostGauge('MemoryUsed', withUnit('Memory in use on the host (total less available)', 'Megabytes'), () => reading.memoryUsedMb);
    hostGauge('MemoryAvailable', withUnit('Memory available on the host without swapping', 'Megabytes'), () => reading.memoryAvailableMb);
    hostGauge('MemoryUtilization', withUnit('Share of the host’s memory in use', 'Percent'), () => reading.memoryUtilizationPercent);
    hostGauge('DiskUsage', withUnit('Space used on the root filesystem', 'Gigabytes'), () => reading.disk?.usedGb);
    hostGauge('DiskAvailable', withUnit('Space available on the root filesystem', 'Gigabytes'), () => reading.disk?.availableGb);
    hostGauge('DiskUtilization', withUnit('Share of the root filesystem in use', 'Percent'), () => reading.disk?.utilizationPercent);
    const gpuGauge = (name: string, description: string, value: (r: ReturnType<GpuReadings['readings']>[number]) => number): void => {
      telemetry.gauges.define({ name, description }, () => this.gpus.readings().map((r) => ({ value: value(r), attributes: { Level: 'Host', DeviceId: String(r.deviceId), Hostname: this.labels.Hostname } })));
    };
    gpuGauge('GPUUtilization', withUnit('Busy share of each CUDA device a model runs on', 'Percent'), (r) => r.utilizationPercent);
    gpuGauge('GPUMemoryUsed', withUnit('Memory in use on each CUDA device a model runs on', 'Megabytes'), (r) => r.memoryUsedMb);
    gpuGauge('GPUMemoryUtilization', withUnit('Share of each CUDA device’s memory in use', 'Percent'), (r) => r.memoryUtilizationPercent);
  }

  /** Counts one HTTP answer by its status class. */
  httpAnswered(status: number): void {
    if (status >= 200 && status < 300) this.answers.Requests2XX += 1;
    else if (status >= 400 && status < 500) this.answers.Requests4XX += 1;
    else if (status >= 500 && status < 600) this.answers.Requests5XX += 1;
  }

  /** Keeps the latest request's queue time and its time after the queue, in milliseconds. */
  requestServed(latencyUs: number, queueUs: number | undefined): void {
    if (queueUs === undefined) return;
    this.lastQueueMs = queueUs / 1000;
    this.lastWorkerThreadMs = Math.max(0, latencyUs - queueUs) / 1000;
  }

  /** Reads the GPUs of the CUDA devices models run on now, before the page is collected. */
  refreshGpus(): Promise<void> {
    const ids = new Set<number>();
    for (const { device } of this.instances()) {
      const match = device === undefined ? null : /^cuda:(\d+)$/.exec(device);
      if (match?.[1] !== undefined) ids.add(Number(match[1]));
    }
    return this.gpus.refresh([...ids].sort((a, b) => a - b));
  }
}
