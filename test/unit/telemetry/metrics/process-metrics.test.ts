import { describe, expect, it } from '@jest/globals';
import { EventLoopUtilizationWindow, immediateLagSeconds } from '../../../../src/telemetry/metrics/process-metrics.js';
import { Telemetry } from '../../../../src/telemetry/tracing/telemetry.js';
import { parsePrometheusText, type PromFamily } from '../../../support/prometheus-text.js';

const PROCESS_METRICS: readonly (readonly [string, string])[] = [
  ['process_cpu_user_seconds_total', 'counter'],
  ['process_cpu_system_seconds_total', 'counter'],
  ['process_cpu_seconds_total', 'counter'],
  ['process_start_time_seconds', 'gauge'],
  ['process_resident_memory_bytes', 'gauge'],
  ['nodejs_heap_size_total_bytes', 'gauge'],
  ['nodejs_heap_size_used_bytes', 'gauge'],
  ['nodejs_external_memory_bytes', 'gauge'],
  ['nodejs_eventloop_lag_seconds', 'gauge'],
  ['nodejs_eventloop_utilization_ratio', 'gauge'],
];

async function families(telemetry: Telemetry): Promise<Map<string, PromFamily>> {
  const text = await telemetry.prometheusText();
  return parsePrometheusText(text === '' || text.endsWith('\n') ? text : `${text}\n`);
}

function valueOf(page: Map<string, PromFamily>, name: string): number {
  const samples = page.get(name)?.samples ?? [];
  expect(samples).toHaveLength(1);
  return samples[0]?.value ?? NaN;
}

/** Spins the CPU until the process's user CPU time has moved on from what it was. */
function burnCpu(): void {
  const start = process.cpuUsage().user;
  let sink = 0;
  do {
    for (let i = 0; i < 1e5; i++) sink += Math.sqrt(i);
  } while (process.cpuUsage().user === start);
  expect(sink).toBeGreaterThan(0);
}

describe('process metrics', () => {
  it('are on the page only once asked for', async () => {
    const telemetry = new Telemetry();
    const page = await families(telemetry);
    for (const [name] of PROCESS_METRICS) expect(page.has(name)).toBe(false);
    await telemetry.shutdown();
  });

  it('are named and typed as Prometheus client libraries name them, each one series without labels', async () => {
    const telemetry = new Telemetry();
    telemetry.observeProcess();
    const page = await families(telemetry);
    for (const [name, type] of PROCESS_METRICS) {
      expect([name, page.get(name)?.type]).toEqual([name, type]);
      expect(page.get(name)?.samples.map((s) => s.labels)).toEqual([{}]);
    }
    await telemetry.shutdown();
  });

  it('are registered once when asked for twice (servers sharing a telemetry)', async () => {
    const telemetry = new Telemetry();
    telemetry.observeProcess();
    telemetry.observeProcess();
    const text = await telemetry.prometheusText();
    expect(text.split('\n').filter((line) => line.startsWith('process_resident_memory_bytes'))).toHaveLength(1);
    await telemetry.shutdown();
  });

  it('count CPU time as it is spent', async () => {
    const telemetry = new Telemetry();
    telemetry.observeProcess();
    const before = valueOf(await families(telemetry), 'process_cpu_user_seconds_total');
    burnCpu();
    const after = await families(telemetry);
    expect(valueOf(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(before);
    expect(valueOf(after, 'process_cpu_seconds_total')).toBeGreaterThanOrEqual(valueOf(after, 'process_cpu_user_seconds_total'));
    await telemetry.shutdown();
  });

  it('report memory and heap as the process sees them', async () => {
    const telemetry = new Telemetry();
    telemetry.observeProcess();
    const page = await families(telemetry);
    expect(valueOf(page, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(page, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(valueOf(page, 'nodejs_heap_size_used_bytes')).toBeLessThanOrEqual(valueOf(page, 'nodejs_heap_size_total_bytes'));
    expect(valueOf(page, 'process_start_time_seconds')).toBeLessThanOrEqual(Date.now() / 1000);
    expect(valueOf(page, 'process_start_time_seconds')).toBeGreaterThan(Date.now() / 1000 - process.uptime() - 2);
    await telemetry.shutdown();
  });

  it('report the event loop: lag of a callback queued at collection, utilisation between 0 and 1', async () => {
    const telemetry = new Telemetry();
    telemetry.observeProcess();
    const page = await families(telemetry);
    expect(valueOf(page, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    const utilization = valueOf(page, 'nodejs_eventloop_utilization_ratio');
    expect(utilization).toBeGreaterThanOrEqual(0);
    expect(utilization).toBeLessThanOrEqual(1);
    await telemetry.shutdown();
  });
});

describe('immediateLagSeconds', () => {
  it('includes the time the event loop was blocked before reaching the callback', async () => {
    const blockedUntil = performance.now() + 20;
    const lag = immediateLagSeconds();
    while (performance.now() < blockedUntil) {
      // The loop is blocked: the queued callback cannot run yet.
    }
    expect(await lag).toBeGreaterThanOrEqual(0.02);
  });
});

describe('EventLoopUtilizationWindow', () => {
  it('reads a window spent inside one callback as fully used', () => {
    const window = new EventLoopUtilizationWindow();
    window.take();
    const busyUntil = performance.now() + 5;
    while (performance.now() < busyUntil) {
      // Busy: both readings fall inside this callback, so the loop cannot have idled between them.
    }
    expect(window.take()).toBe(1);
  });

  it('reads a window spent waiting on a timer as less than fully used', async () => {
    const window = new EventLoopUtilizationWindow();
    window.take();
    // Long enough that the loop idles for part of it even when other work shares the thread.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(window.take()).toBeLessThan(1);
  });
});
