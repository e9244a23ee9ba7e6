import type { Meter, ObservableResult } from '@opentelemetry/api';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/** When the process started, in epoch seconds: now less its uptime, read once. */
const PROCESS_START_SECONDS = Date.now() / 1000 - process.uptime();

/** How long a callback queued with `setImmediate` now waits for the event loop to reach it, in seconds. */
export function immediateLagSeconds(): Promise<number> {
  const queued = performance.now();
  return new Promise((resolve) => {
    setImmediate(() => {
      resolve((performance.now() - queued) / 1000);
    });
  });
}

/**
 * Event-loop utilisation between two readings: each reading reports the fraction of the time since the
 * previous one (since the process started, for the first) that the loop spent running callbacks.
 */
export class EventLoopUtilizationWindow {
  private last: EventLoopUtilization = performance.eventLoopUtilization();

  /** The utilisation since the previous call (0..1), starting a new window. */
  take(): number {
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, this.last);
    this.last = now;
    return since.utilization;
  }
}

/**
 * Registers the process's metrics on `meter`, named as Prometheus client libraries name them (so
 * dashboards and autoscaler rules written for Node.js services work unchanged): CPU time, resident
 * memory, V8 heap, event-loop lag and utilisation. Each is read from Node.js when metrics are collected;
 * nothing runs between collections.
 */
export function observeProcessMetrics(meter: Meter): void {
  const utilization = new EventLoopUtilizationWindow();
  const cpu = (read: (usage: NodeJS.CpuUsage) => number) => (result: ObservableResult) => {
    result.observe(read(process.cpuUsage()) / 1e6);
  };
  meter
    .createObservableCounter('process_cpu_user_seconds_total', { description: 'CPU time the process spent in user mode, in seconds.', unit: 's' })
    .addCallback(cpu((usage) => usage.user));
  meter
    .createObservableCounter('process_cpu_system_seconds_total', { description: 'CPU time the process spent in the kernel, in seconds.', unit: 's' })
    .addCallback(cpu((usage) => usage.system));
  meter
    .createObservableCounter('process_cpu_seconds_total', { description: 'CPU time the process spent in user mode and in the kernel, in seconds.', unit: 's' })
    .addCallback(cpu((usage) => usage.user + usage.system));
  meter.createObservableGauge('process_start_time_seconds', { description: 'When the process started, in seconds since the Unix epoch.', unit: 's' }).addCallback((result) => {
    result.observe(Math.round(PROCESS_START_SECONDS));
  });
  meter.createObservableGauge('process_resident_memory_bytes', { description: 'Resident set size of the process, in bytes.', unit: 'By' }).addCallback((result) => {
    result.observe(process.memoryUsage.rss());
  });
  meter.createObservableGauge('nodejs_heap_size_total_bytes', { description: 'Size of the V8 heap, in bytes.', unit: 'By' }).addCallback((result) => {
    result.observe(getHeapStatistics().total_heap_size);
  });
  meter.createObservableGauge('nodejs_heap_size_used_bytes', { description: 'V8 heap in use, in bytes.', unit: 'By' }).addCallback((result) => {
    result.observe(getHeapStatistics().used_heap_size);
  });
  meter.createObservableGauge('nodejs_external_memory_bytes', { description: 'Memory of C++ objects bound to JavaScript objects (tensors, buffers), in bytes.', unit: 'By' }).addCallback((result) => {
    result.observe(process.memoryUsage().external);
  });
  meter
    .createObservableGauge('nodejs_eventloop_lag_seconds', { description: 'How long a callback queued at collection waited for the event loop, in seconds.', unit: 's' })
    .addCallback(async (result) => {
      result.observe(await immediateLagSeconds());
    });
  meter
    .createObservableGauge('nodejs_eventloop_utilization_ratio', { description: 'Fraction of the time since the previous collection that the event loop spent running callbacks (0..1).' })
    .addCallback((result) => {
      result.observe(utilization.take());
    });
}
