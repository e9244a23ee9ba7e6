import { availableParallelism } from 'node:os';
import { type InferenceSession } from 'onnxruntime-node';
import { type ExecutionProviderName, type IntraOpSpinning, type RuntimeSessionOptions } from '../../sdk/runtime/model-runtime.js';
import { physicalCoresAvailable } from './physical-cores.js';

/**
 * What an omitted {@link RuntimeSessionOptions} field means for ONNX models:
 * - `intraOpNumThreads: 0`: one thread per physical core this process may use ({@link intraOpThreads});
 * - `interOpNumThreads: 0`: ONNX Runtime picks;
 * - `intraOpSpinning: 'during-run'`: the intra-op threads busy-wait between the operators of a run, and
 *   sleep once it ends. ORT's own default also spins between runs: on a server whose event loop shares the
 *   cores, a thread spinning between short runs takes a core from the event loop (see docs/performance.md);
 * - `executionMode: 'sequential'`: operators run one after another, so inter-op threads are unused;
 * - `graphOptimizationLevel: 'all'`: every graph optimisation ONNX Runtime offers;
 * - `executionProviders: ['cpu']`;
 * - `deviceId: 0`: the first GPU, for providers that take a device;
 * - `dedicatedThread: false`: runs compute on the thread that asks for them.
 */
export const DEFAULT_SESSION_OPTIONS = {
  intraOpNumThreads: 0,
  intraOpSpinning: 'during-run',
  interOpNumThreads: 0,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  executionProviders: ['cpu'],
  deviceId: 0,
  dedicatedThread: false,
} as const satisfies Required<RuntimeSessionOptions>;

/**
 * ONNX Runtime's session log level: fatal only. Its warnings (nodes left to the CPU provider, unused
 * initializers) are routine for served models and would flood the server log; its errors are those of
 * failed runs, which reach the caller as `SLUICE_INFERENCE_FAILED` with ONNX Runtime's reason, and which it
 * would also write to stderr, unstructured, once per failing request.
 */
const ORT_LOG_SEVERITY_FATAL = 4;

/**
 * The intra-op threads a session gets for `requested`: 0 means one per physical core this process may use,
 * counted by Sluice from the operating system (its affinity mask, topology and CPU quota). ONNX Runtime
 * counts cores too, but on some virtual machines it sees one core where there are two and so computes
 * at half speed; its count is used only where the system's cannot be read.
 */
export function intraOpThreads(requested: number, cores: number | undefined): number {
  return requested === 0 ? (cores ?? 0) : requested;
}

/**
 * A thread pool size no larger than `cpus`, the CPUs this process may use: more threads than CPUs only
 * take turns, and ONNX Runtime starts them while the session is created, on the event loop (500 took
 * 17 s on two cores; 2^31 - 1 fails with std::bad_alloc). 0 (ONNX Runtime's choice) stays 0.
 */
export function cappedThreads(requested: number, cpus: number): number {
  return Math.min(requested, cpus);
}

/**
 * ORT session options for creating a session with exactly one execution provider, `provider`; the
 * provider preference list itself is handled by the fallback in `execution-provider.ts`.
 */
export function toOrtSessionOptions(
  options: RuntimeSessionOptions,
  provider: ExecutionProviderName,
): InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: cappedThreads(intraOpThreads(options.intraOpNumThreads ?? DEFAULT_SESSION_OPTIONS.intraOpNumThreads, physicalCoresAvailable()), availableParallelism()),
    interOpNumThreads: cappedThreads(options.interOpNumThreads ?? DEFAULT_SESSION_OPTIONS.interOpNumThreads, availableParallelism()),
    executionMode: options.executionMode ?? DEFAULT_SESSION_OPTIONS.executionMode,
    graphOptimizationLevel: options.graphOptimizationLevel ?? DEFAULT_SESSION_OPTIONS.graphOptimizationLevel,
    executionProviders: [toOrtProvider(provider, options.deviceId ?? DEFAULT_SESSION_OPTIONS.deviceId)],
    logSeverityLevel: ORT_LOG_SEVERITY_FATAL,
    extra: spinningConfig(options.intraOpSpinning ?? DEFAULT_SESSION_OPTIONS.intraOpSpinning),
  };
}

/** ORT's session configuration entries for `spinning` (its defaults are to spin, and not to stop after a run). */
function spinningConfig(spinning: IntraOpSpinning): Record<string, unknown> {
  switch (spinning) {
    case 'during-run':
      return { session: { force_spinning_stop: '1' } };
    case 'always':
      return {};
    case 'never':
      return { session: { intra_op: { allow_spinning: '0' } } };
  }
}

function toOrtProvider(provider: ExecutionProviderName, deviceId: number): InferenceSession.ExecutionProviderConfig {
  switch (provider) {
    case 'cpu':
      return 'cpu';
    case 'cuda':
      return { name: 'cuda', deviceId };
    case 'webgpu':
      // onnxruntime-node picks the WebGPU adapter itself; it takes no device id.
      return 'webgpu';
  }
}
