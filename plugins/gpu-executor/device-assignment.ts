import { SluiceError, type ExecutionProviderName } from '../../src/sdk/index.js';

/** Where a session runs: the label instances report (`cuda:1`, `webgpu`, `cpu`) and the id it is created with. */
export interface ExecutionDevice {
  readonly label: string;
  readonly deviceId: number;
}

/**
 * The GPU ids a manifest `device` names: `gpu:<n>` is GPU n, `gpu` is `configured` when given, else the
 * first `visibleCount` GPUs; `cpu` (and `gpu` with no GPU visible) is `[0]`, where providers that take no
 * device ignore the id.
 */
export function resolveGpuIds(device: string, configured: readonly number[] | undefined, visibleCount: number): number[] {
  const match = /^gpu(?::(\d+))?$/.exec(device);
  if (match === null) {
    if (device === 'cpu') return [0];
    throw new SluiceError('SLUICE_MANIFEST_INVALID', `device \`${device}\` is not cpu, gpu or gpu:<n>`, { device });
  }
  if (match[1] !== undefined) return [Number(match[1])];
  if (configured !== undefined) return [...configured];
  return Array.from({ length: Math.max(visibleCount, 1) }, (_, id) => id);
}

/**
 * The devices sessions are created on once `provider` is known. Only CUDA places a session on a chosen
 * GPU; WebGPU picks its adapter itself and the CPU is one device, so both collapse to a single device.
 */
export function executionDevices(provider: ExecutionProviderName, gpuIds: readonly number[]): ExecutionDevice[] {
  const [first = 0] = gpuIds;
  switch (provider) {
    case 'cuda':
      return gpuIds.map((deviceId) => ({ label: `cuda:${deviceId}`, deviceId }));
    case 'webgpu':
      return [{ label: 'webgpu', deviceId: first }];
    case 'cpu':
      return [{ label: 'cpu', deviceId: first }];
  }
}

/** The device instance number `index` runs on: round-robin over `devices`. */
export function deviceForInstance<T>(index: number, devices: readonly T[]): T {
  if (!Number.isSafeInteger(index) || index < 0) throw new SluiceError('SLUICE_INTERNAL', `instance index ${index} is not an integer ≥ 0`);
  const device = devices[index % devices.length];
  if (device === undefined) throw new SluiceError('SLUICE_INTERNAL', 'no device to place an instance on');
  return device;
}
