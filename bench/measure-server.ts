import { type LoadRun } from './bench-results.js';
import { startForeignCpuMeter } from './cpu-usage.js';
import { runLoad } from './load.js';
import { assertServes, type ServerSetup } from './server-setups.js';

/** How long and how hard to drive each server. */
export interface ServerMeasurementPlan {
  readonly concurrencies: readonly number[];
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /** The round these runs belong to, from 0. */
  readonly round: number;
  /** CPUs of the machine, to tell how much other processes used during each run. */
  readonly cpus: number;
  /** Called after each run, for progress output. */
  readonly onRun?: (run: LoadRun) => void;
}

/**
 * Starts the setup's server, checks that it answers the request, warms it up (JIT, ORT arenas,
 * connections) at the highest concurrency, measures each concurrency in turn and stops the server,
 * also when something fails.
 */
export async function measureServer(setup: ServerSetup, plan: ServerMeasurementPlan): Promise<LoadRun[]> {
  const server = await setup.start();
  try {
    await assertServes(server.baseUrl, setup.request);
    const load = { baseUrl: server.baseUrl, request: setup.request };
    await runLoad({ ...load, connections: Math.max(...plan.concurrencies), durationSeconds: plan.warmupSeconds });
    const runs: LoadRun[] = [];
    for (const concurrency of plan.concurrencies) {
      const otherCpu = await startForeignCpuMeter([process.pid, server.pid], plan.cpus);
      const measured = await runLoad({ ...load, connections: concurrency, durationSeconds: plan.durationSeconds });
      const other = await otherCpu?.();
      const run: LoadRun = { setup: setup.setup, model: setup.model.name, concurrency, round: plan.round, ...measured, ...(other !== undefined ? { otherCpu: other } : {}) };
      runs.push(run);
      plan.onRun?.(run);
    }
    return runs;
  } finally {
    await server.stop();
  }
}
