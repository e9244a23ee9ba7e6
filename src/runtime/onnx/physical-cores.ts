import { readFileSync } from 'node:fs';

/** Where a CPU sits: its package (socket) and its core within that package. */
export interface CpuPlace {
  readonly packageId: string;
  readonly coreId: string;
}

/** What {@link countPhysicalCores} reads from the operating system. */
export interface CpuTopologySource {
  /** The `Cpus_allowed_list` value of `/proc/self/status`, such as `0-3,8`; undefined when unreadable. */
  allowedCpus(): string | undefined;
  /** Where CPU `cpu` sits; undefined when unreadable. */
  placeOf(cpu: number): CpuPlace | undefined;
  /** The cgroup's `cpu.max` (`max 100000`, `200000 100000`); undefined when there is none. */
  cpuMax(): string | undefined;
}

/** CPU numbers of a kernel CPU list such as `0-3,8`; undefined when it is not one. */
export function parseCpuList(list: string): number[] | undefined {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (match === null) return undefined;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (last < first) return undefined;
    for (let cpu = first; cpu <= last; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** Whole CPUs a cgroup `cpu.max` quota allows, rounded up; undefined for no quota or an unreadable value. */
export function cpusOfQuota(cpuMax: string): number | undefined {
  const [quota, period] = cpuMax.trim().split(/\s+/);
  if (quota === undefined || quota === 'max' || period === undefined) return undefined;
  const cpus = Number(quota) / Number(period);
  return Number.isFinite(cpus) && cpus > 0 ? Math.ceil(cpus) : undefined;
}

/**
 * Physical cores this process may compute on: the distinct cores of the CPUs in its affinity mask, at
 * most what its cgroup's CPU quota allows. Undefined when the topology cannot be read.
 */
export function countPhysicalCores(source: CpuTopologySource): number | undefined {
  const allowed = source.allowedCpus();
  const cpus = allowed === undefined ? undefined : parseCpuList(allowed);
  if (cpus === undefined || cpus.length === 0) return undefined;
  const cores = new Set<string>();
  for (const cpu of cpus) {
    const place = source.placeOf(cpu);
    if (place === undefined) return undefined;
    cores.add(`${place.packageId}/${place.coreId}`);
  }
  const cpuMax = source.cpuMax();
  const quota = cpuMax === undefined ? undefined : cpusOfQuota(cpuMax);
  return quota === undefined ? cores.size : Math.min(cores.size, quota);
}

function readTrimmed(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The running Linux system's CPU topology, from `/proc` and `/sys`. */
export const LINUX_CPU_TOPOLOGY: CpuTopologySource = {
  allowedCpus: () => /^Cpus_allowed_list:\s*(\S+)$/m.exec(readTrimmed('/proc/self/status') ?? '')?.[1],
  placeOf: (cpu) => {
    const dir = `/sys/devices/system/cpu/cpu${cpu}/topology`;
    const packageId = readTrimmed(`${dir}/physical_package_id`);
    const coreId = readTrimmed(`${dir}/core_id`);
    return packageId === undefined || coreId === undefined ? undefined : { packageId, coreId };
  },
  cpuMax: () => readTrimmed('/sys/fs/cgroup/cpu.max'),
};

let counted: { readonly cores: number | undefined } | undefined;

/**
 * Physical cores this process may use ({@link countPhysicalCores} of the running system), counted once;
 * undefined off Linux or when the topology cannot be read.
 */
export function physicalCoresAvailable(): number | undefined {
  counted ??= { cores: countPhysicalCores(LINUX_CPU_TOPOLOGY) };
  return counted.cores;
}
