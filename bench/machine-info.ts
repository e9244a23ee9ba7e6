import { cpus, platform, release, totalmem } from 'node:os';
import * as ort from 'onnxruntime-node';
import { type MachineInfo } from './bench-results.js';

/** The machine and software the figures were measured with. */
export function machineInfo(): MachineInfo {
  const cores = cpus();
  return {
    cpus: cores.length,
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    onnxruntime: ort.env.versions.node ?? 'unknown',
    platform: `${platform()} ${release()}`,
  };
}

/** One line describing {@link MachineInfo}. */
export function describeMachine(machine: MachineInfo): string {
  return `${machine.cpus} vCPU (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node.js ${machine.node}, onnxruntime-node ${machine.onnxruntime}, ${machine.platform}`;
}

