import type { ModelVersion } from '../../serving/model-version.js';

/**
 * How many GPUs a version runs on: the distinct devices of its workers other than the CPU; with no worker
 * running, 0 when it loaded on the CPU and 1 otherwise (its placement waits for the first worker).
 */
export function gpuCountOf(version: ModelVersion): number {
  const devices = new Set(version.workers().map((w) => w.device).filter((device) => device !== 'cpu'));
  if (version.workers().length > 0) return devices.size;
  return version.manifest.device === 'cpu' || version.executorModel.executionProvider === 'cpu' ? 0 : 1;
}
