import { readdir } from 'node:fs/promises';

const NVIDIA_GPUS_DIR = '/proc/driver/nvidia/gpus';

/**
 * How many GPUs a `CUDA_VISIBLE_DEVICES` value exposes. CUDA stops at the first entry that is not a GPU
 * index or UUID, so `-1` (or an empty value) hides every GPU.
 */
export function countCudaVisibleDevices(value: string): number {
  let count = 0;
  for (const entry of value.split(',').map((e) => e.trim())) {
    if (!/^(\d+|GPU-[0-9a-fA-F-]+|MIG-[0-9a-zA-Z/-]+)$/.test(entry)) break;
    count += 1;
  }
  return count;
}

/**
 * GPUs this process can use: `CUDA_VISIBLE_DEVICES` when it is set, else the NVIDIA driver's GPU list,
 * else 0 (no NVIDIA driver).
 */
export async function visibleGpuCount(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const visible = env.CUDA_VISIBLE_DEVICES;
  if (visible !== undefined) return countCudaVisibleDevices(visible);
  try {
    return (await readdir(NVIDIA_GPUS_DIR)).length;
  } catch {
    return 0;
  }
}
