import { readFile } from 'node:fs/promises';

/** CPU time of the whole machine from `/proc/stat`, in clock ticks summed over every CPU. */
export interface MachineCpuTicks {
  readonly busy: number;
  readonly total: number;
}

/**
 * The aggregate `cpu` line of `/proc/stat`: busy is user + nice + system + irq + softirq + steal; total
 * adds idle and iowait. Guest time is already counted in user.
 */
export function parseProcStat(text: string): MachineCpuTicks {
  const line = text.split('\n').find((candidate) => candidate.startsWith('cpu '));
  if (line === undefined) throw new Error('no aggregate cpu line in /proc/stat');
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** User plus system time of a process (all its threads) from its `/proc/<pid>/stat`, in clock ticks. */
export function parsePidStat(text: string): number {
  // The command name may hold spaces and parentheses; the fields after it never do.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name and state.
  return Number(fields[11]) + Number(fields[12]);
}

async function machineTicks(): Promise<MachineCpuTicks> {
  return parseProcStat(await readFile('/proc/stat', 'utf8'));
}

/** Clock ticks of `/proc` (USER_HZ), fixed at 100 per second by the Linux ABI. */
export const PROC_TICKS_PER_SECOND = 100;

/** User plus system ticks of `pids` from `/proc/<pid>/stat`; a process that is gone adds none. */
export async function processTicks(pids: readonly number[]): Promise<number> {
  let ticks = 0;
  for (const pid of pids) {
    try {
      ticks += parsePidStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      // A process that is gone used no more CPU.
    }
  }
  return ticks;
}

/**
 * User plus system ticks of the main thread of process `pid` (`/proc/<pid>/task/<pid>/stat`): the
 * JavaScript thread of a Node.js server, without the threads of native libraries (ONNX Runtime's,
 * which may spin while they wait). Throws when the process is gone.
 */
export async function mainThreadTicks(pid: number): Promise<number> {
  return parsePidStat(await readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
}

/** Nanoseconds a thread has run on a CPU, from its `schedstat` (the first of its three fields). */
export function parseSchedstat(text: string): number {
  const ran = /^\d+/.exec(text.trim())?.[0];
  if (ran === undefined) throw new Error(`not a schedstat line: ${text.trim()}`);
  return Number(ran);
}

/**
 * Nanoseconds the main thread of process `pid` has run (`/proc/<pid>/task/<pid>/schedstat`): the
 * JavaScript thread of a Node.js server, as {@link mainThreadTicks}, to the nanosecond instead of the
 * hundredth of a second. Throws when the process is gone.
 */
export async function mainThreadCpuNs(pid: number): Promise<number> {
  return parseSchedstat(await readFile(`/proc/${pid}/task/${pid}/schedstat`, 'utf8'));
}

/** Average cores used between two readings, from busy ticks and total ticks over `cpus` CPUs. */
export function coresUsed(busyTicks: number, totalTicks: number, cpus: number): number {
  return totalTicks <= 0 ? 0 : (busyTicks / totalTicks) * cpus;
}

/**
 * Measures how much CPU processes other than `ownPids` used while it ran, in cores (0 = none, 1 = one
 * core fully busy): what competed with the benchmark. Linux only; `undefined` elsewhere.
 */
export async function startForeignCpuMeter(ownPids: readonly number[], cpus: number): Promise<(() => Promise<number | undefined>) | undefined> {
  if (process.platform !== 'linux') return undefined;
  const machineBefore = await machineTicks();
  const ownBefore = await processTicks(ownPids);
  return async () => {
    const machineAfter = await machineTicks();
    const own = (await processTicks(ownPids)) - ownBefore;
    const busy = machineAfter.busy - machineBefore.busy - own;
    return Math.max(0, coresUsed(busy, machineAfter.total - machineBefore.total, cpus));
  };
}
