import { SluiceError, type ErrorCode, type ExecutionProviderName } from '../../src/sdk/index.js';

/**
 * Settings of the GPU executor. Every key is optional; {@link DEFAULT_GPU_EXECUTOR_OPTIONS} gives the
 * defaults. Server-wide values are given to the executor's constructor; a model's `executorOptions` in its
 * manifest override them key by key.
 */
export interface GpuExecutorOptions {
  /**
   * Execution providers in order of preference; the first that starts is used, and `cpu` is always the
   * last resort. Default: the model's session options (`runtimeOptions.executionProviders` as the server
   * resolves it), else `cuda`, `webgpu`, `cpu`.
   */
  readonly executionProviders?: readonly ExecutionProviderName[];
  /** GPU ids used for `device: gpu` (ignored for `gpu:<n>`, which names its GPU). Default: every visible GPU. */
  readonly deviceIds?: readonly number[];
  /** Batches running at once on one device, a count ≥ 1; later ones wait in arrival order. Default 2. */
  readonly maxInFlightBatchesPerDevice?: number;
  /** Whether an instance runs one zero-filled batch of the largest batch size before it is ready. Default true. */
  readonly warmUp?: boolean;
  /**
   * Warm-up shapes per input name: the dimensions after the batch dimension. Default: the model's own,
   * with each variable dimension set to 1.
   */
  readonly warmUpShapes?: Readonly<Record<string, readonly number[]>>;
  /** Whether FP16 outputs are answered as FP32 (converted on the CPU). Default false. */
  readonly fp16OutputsAsFp32?: boolean;
  /** Bytes of input buffers kept for reuse per device, an integer ≥ 0; 0 turns reuse off. Default 256 MiB. */
  readonly inputBufferPoolBytes?: number;
  /**
   * Whether each device's session runs on that device's worker thread, so the event loop keeps taking
   * requests and assembling the next batch while the GPU computes, and GPUs compute at once. Default true.
   */
  readonly sessionThread?: boolean;
}

/** Options with every default applied (`executionProviders` and `deviceIds` stay optional: their defaults depend on the model). */
export type ResolvedGpuExecutorOptions = Required<Omit<GpuExecutorOptions, 'executionProviders' | 'deviceIds'>> &
  Pick<GpuExecutorOptions, 'executionProviders' | 'deviceIds'>;

/** The provider preference list used when neither the options nor the model's session options give one. */
export const DEFAULT_GPU_EXECUTION_PROVIDERS: readonly ExecutionProviderName[] = ['cuda', 'webgpu', 'cpu'];

/** Defaults of {@link GpuExecutorOptions}. */
export const DEFAULT_GPU_EXECUTOR_OPTIONS = {
  maxInFlightBatchesPerDevice: 2,
  warmUp: true,
  warmUpShapes: {},
  fp16OutputsAsFp32: false,
  inputBufferPoolBytes: 256 * 1024 * 1024,
  sessionThread: true,
} as const satisfies ResolvedGpuExecutorOptions;

const PROVIDERS: readonly ExecutionProviderName[] = ['cpu', 'cuda', 'webgpu'];
const KEYS = [
  'executionProviders',
  'deviceIds',
  'maxInFlightBatchesPerDevice',
  'warmUp',
  'warmUpShapes',
  'fp16OutputsAsFp32',
  'inputBufferPoolBytes',
  'sessionThread',
] as const satisfies readonly (keyof GpuExecutorOptions)[];

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown, min: number): value is number => Number.isSafeInteger(value) && (value as number) >= min;

/** Why `value` is not a valid value for `key`, or undefined when it is. */
function problemWith(key: (typeof KEYS)[number], value: unknown): string | undefined {
  switch (key) {
    case 'executionProviders':
      if (!Array.isArray(value) || value.length === 0 || !value.every((p) => PROVIDERS.includes(p as ExecutionProviderName))) {
        return `must be a non-empty list of ${PROVIDERS.join(', ')}`;
      }
      return new Set(value).size === value.length ? undefined : 'must not repeat a provider';
    case 'deviceIds':
      if (!Array.isArray(value) || value.length === 0 || !value.every((id) => isCount(id, 0))) {
        return 'must be a non-empty list of GPU ids (integers ≥ 0)';
      }
      return new Set(value).size === value.length ? undefined : 'must not repeat a GPU id';
    case 'maxInFlightBatchesPerDevice':
      return isCount(value, 1) ? undefined : 'must be an integer ≥ 1';
    case 'inputBufferPoolBytes':
      return isCount(value, 0) ? undefined : 'must be an integer ≥ 0 (bytes)';
    case 'warmUp':
    case 'fp16OutputsAsFp32':
    case 'sessionThread':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'warmUpShapes':
      if (!isRecord(value)) return 'must map input names to lists of dimensions';
      return Object.values(value).every((dims) => Array.isArray(dims) && dims.every((d) => isCount(d, 1)))
        ? undefined
        : 'must map input names to lists of dimensions (integers ≥ 1)';
  }
}

/**
 * Checks raw options (from a config file or a manifest) and returns them typed. Throws a `SluiceError`
 * with `code` whose message starts with `source` and names every bad key.
 */
export function parseGpuExecutorOptions(raw: unknown, source: string, code: ErrorCode = 'SLUICE_CONFIG_INVALID'): GpuExecutorOptions {
  if (raw === undefined) return {};
  if (!isRecord(raw)) throw new SluiceError(code, `${source}: executor options must be a mapping`, { source });
  const problems: string[] = [];
  for (const key of Object.keys(raw)) {
    if (!(KEYS as readonly string[]).includes(key)) problems.push(`\`${key}\` is not a GPU executor option (known: ${KEYS.join(', ')})`);
  }
  for (const key of KEYS) {
    if (raw[key] === undefined) continue;
    const problem = problemWith(key, raw[key]);
    if (problem !== undefined) problems.push(`\`${key}\` ${problem}`);
  }
  if (problems.length > 0) throw new SluiceError(code, `${source}: ${problems.join('; ')}`, { source, problems });
  return raw;
}

/** `base` overridden key by key by `override`, with defaults for what neither sets. */
export function resolveGpuExecutorOptions(base: GpuExecutorOptions, override: GpuExecutorOptions = {}): ResolvedGpuExecutorOptions {
  const defined = (options: GpuExecutorOptions): GpuExecutorOptions =>
    Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_GPU_EXECUTOR_OPTIONS, ...defined(base), ...defined(override) };
}
