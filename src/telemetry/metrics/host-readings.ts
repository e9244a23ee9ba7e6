import { readFileSync, statfsSync } from 'node:fs';
import { cpus, freemem, totalmem } from 'node:os';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** Busy and total CPU time of every core together, in milliseconds since boot. */
interface CpuTimes {
  readonly busy: number;
  readonly total: number;
}

function cpuTimes(): CpuTimes {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/**
 * Memory the kernel says can be given to programs without swapping (`MemAvailable` of /proc/meminfo), in
 * bytes; where that cannot be read (not Linux), the free memory Node reports.
 */
function availableMemory(): number {
  try {
    const match = /^MemAvailable:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    if (match?.[1] !== undefined) return Number(match[1]) * 1024;
  } catch {
    // Not Linux, or /proc not mounted: the free memory is the nearest figure.
  }
  return freemem();
}

/** The host figures TorchServe reports, each in TorchServe's unit. */
export interface HostReading {
  /** Busy share of every core since the previous reading (since boot for the first), in percent. */
  readonly cpuUtilizationPercent: number;
  readonly memoryUsedMb: number;
  readonly memoryAvailableMb: number;
  readonly memoryUtilizationPercent: number;
  /** Of the filesystem holding `disk`; undefined when it cannot be read. */
  readonly disk?: { readonly usedGb: number; readonly availableGb: number; readonly utilizationPercent: number };
}

const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;

/**
 * Reads host CPU, memory and disk figures when asked (at each scrape), not on a timer: CPU times from
 * `os.cpus()`, memory from /proc/meminfo, the disk from one `statfs` call. A reading costs a few system
 * calls and a read of /proc/meminfo.
 */
export class HostReadings {
  private lastCpu: CpuTimes = { busy: 0, total: 0 };

  /** `disk`: a path on the filesystem whose usage is reported (TorchServe reports the root's). */
  constructor(private readonly disk = '/') {}

  read(): HostReading {
    const now = cpuTimes();
    const busy = now.busy - this.lastCpu.busy;
    const total = now.total - this.lastCpu.total;
    this.lastCpu = now;
    const totalMemory = totalmem();
    const available = Math.min(availableMemory(), totalMemory);
    const used = totalMemory - available;
    const disk = this.diskReading();
    return {
      cpuUtilizationPercent: total > 0 ? round((100 * busy) / total, 1) : 0,
      memoryUsedMb: used / MIB,
      memoryAvailableMb: available / MIB,
      memoryUtilizationPercent: totalMemory > 0 ? round((100 * used) / totalMemory, 1) : 0,
      ...(disk !== undefined ? { disk } : {}),
    };
  }

  private diskReading(): HostReading['disk'] {
    try {
      const { blocks, bfree, bavail, bsize } = statfsSync(this.disk);
      const used = (blocks - bfree) * bsize;
      const available = bavail * bsize;
      // As `df` counts it: the share of what ordinary users may fill.
      const utilizationPercent = used + available > 0 ? round((100 * used) / (used + available), 1) : 0;
      return { usedGb: used / GIB, availableGb: available / GIB, utilizationPercent };
    } catch {
      return undefined;
    }
  }
}
