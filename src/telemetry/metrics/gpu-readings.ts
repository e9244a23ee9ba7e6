import { execFile } from 'node:child_process';

/** One GPU as `nvidia-smi` reports it. */
export interface GpuReading {
  readonly deviceId: number;
  readonly utilizationPercent: number;
  readonly memoryUsedMb: number;
  readonly memoryUtilizationPercent: number;
}

/** What runs `nvidia-smi` with arguments and answers its standard output (replaceable in tests). */
export type GpuQuery = (args: readonly string[]) => Promise<string>;

/** How long one `nvidia-smi` may take before the scrape goes on without GPU figures. */
const QUERY_TIMEOUT_MS = 2000;

const runNvidiaSmi: GpuQuery = (args) =>
  new Promise((resolve, reject) => {
    execFile('nvidia-smi', [...args], { timeout: QUERY_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout) => {
      if (error) reject(new Error(error.message, { cause: error }));
      else resolve(stdout);
    });
  });

/** `index, utilization.gpu, memory.used, memory.total` lines (no header, no units) → readings. */
export function parseNvidiaSmi(text: string): GpuReading[] {
  const readings: GpuReading[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(',').map((f) => f.trim());
    if (fields.length !== 4) continue;
    const [id, utilization, used, total] = fields.map(Number);
    if (id === undefined || utilization === undefined || used === undefined || total === undefined || ![id, utilization, used, total].every(Number.isFinite)) continue;
    readings.push({ deviceId: id, utilizationPercent: utilization, memoryUsedMb: used, memoryUtilizationPercent: total > 0 ? Math.round((1000 * used) / total) / 10 : 0 });
  }
  return readings;
}

/**
 * GPU figures of the CUDA devices models run on, read with `nvidia-smi` at each scrape (asynchronously,
 * within {@link QUERY_TIMEOUT_MS}); nothing is run while no model runs on a CUDA device. A query that
 * fails (no `nvidia-smi`, a driver error) leaves the GPU figures off that page, and is not retried until
 * the next scrape.
 */
export class GpuReadings {
  private last: readonly GpuReading[] = [];

  constructor(private readonly query: GpuQuery = runNvidiaSmi) {}

  /** Reads the devices `deviceIds` now; empty ids read nothing. */
  async refresh(deviceIds: readonly number[]): Promise<void> {
    if (deviceIds.length === 0) {
      this.last = [];
      return;
    }
    try {
      const text = await this.query(['--query-gpu=index,utilization.gpu,memory.used,memory.total', '--format=csv,noheader,nounits']);
      this.last = parseNvidiaSmi(text).filter((r) => deviceIds.includes(r.deviceId));
    } catch {
      this.last = [];
    }
  }

  /** What the last {@link refresh} read. */
  readings(): readonly GpuReading[] {
    return this.last;
  }
}
