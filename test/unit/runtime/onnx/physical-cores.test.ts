import { describe, expect, it } from '@jest/globals';
import {
  countPhysicalCores,
  cpusOfQuota,
  parseCpuList,
  physicalCoresAvailable,
  type CpuPlace,
  type CpuTopologySource,
} from '../../../../src/runtime/onnx/physical-cores.js';

/** A machine whose CPU `n` sits at `places[n]`, with affinity `allowed` and cgroup `cpuMax`. */
function machine(places: readonly (CpuPlace | undefined)[], allowed: string | undefined, cpuMax?: string): CpuTopologySource {
  return { allowedCpus: () => allowed, placeOf: (cpu) => places[cpu], cpuMax: () => cpuMax };
}

const core = (coreId: number, packageId = 0): CpuPlace => ({ packageId: String(packageId), coreId: String(coreId) });

describe('parseCpuList', () => {
  it('reads ranges and single CPUs', () => {
    expect(parseCpuList('0-2,5,7-8')).toEqual([0, 1, 2, 5, 7, 8]);
  });

  it('refuses what is not a CPU list', () => {
    expect(parseCpuList('0-x')).toBeUndefined();
  });
});

describe('cpusOfQuota', () => {
  it('rounds a fractional quota up to whole CPUs', () => {
    expect(cpusOfQuota('150000 100000')).toBe(2);
  });

  it('reads no quota from max', () => {
    expect(cpusOfQuota('max 100000')).toBeUndefined();
  });
});

describe('countPhysicalCores', () => {
  it('counts two CPUs on two cores as two cores', () => {
    expect(countPhysicalCores(machine([core(0), core(1)], '0-1'))).toBe(2);
  });

  it('counts hyperthread siblings once', () => {
    expect(countPhysicalCores(machine([core(0), core(1), core(0), core(1)], '0-3'))).toBe(2);
  });

  it('tells cores of different packages apart', () => {
    expect(countPhysicalCores(machine([core(0, 0), core(0, 1)], '0-1'))).toBe(2);
  });

  it('counts only the CPUs the process may run on', () => {
    expect(countPhysicalCores(machine([core(0), core(1), core(2), core(3)], '2'))).toBe(1);
  });

  it('counts no more cores than the CPU quota allows', () => {
    expect(countPhysicalCores(machine([core(0), core(1), core(2), core(3)], '0-3', '100000 100000'))).toBe(1);
  });

  it('gives up when a CPU cannot be placed', () => {
    expect(countPhysicalCores(machine([core(0), undefined], '0-1'))).toBeUndefined();
  });

  it('gives up when the affinity cannot be read', () => {
    expect(countPhysicalCores(machine([core(0)], undefined))).toBeUndefined();
  });
});

describe('physicalCoresAvailable', () => {
  it('finds at least one core on this system, or none where it cannot count', () => {
    const cores = physicalCoresAvailable();
    if (process.platform === 'linux') expect(cores).toBeGreaterThanOrEqual(1);
    else expect(cores).toBeUndefined();
  });
});
