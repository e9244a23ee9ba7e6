import { InferenceSession } from 'onnxruntime-node';
import { type ExecutionProviderName, type RuntimeSessionOptions } from '../model-runtime.js';
import { modelLoadFailed, reasonOf } from './model-load-error.js';
import { DEFAULT_SESSION_OPTIONS, toOrtSessionOptions } from './session-options.js';

/** A provider that was tried and could not create the session. */
export interface RejectedExecutionProvider {
  readonly provider: ExecutionProviderName;
  /** ONNX Runtime's reason, e.g. a missing CUDA library or no WebGPU adapter. */
  readonly reason: string;
}

/** Which provider a session ended up on, and why the ones before it were passed over; meant for logs. */
export interface ExecutionProviderSelection {
  readonly active: ExecutionProviderName;
  /** Providers tried before {@link active}, in preference order. */
  readonly rejected: readonly RejectedExecutionProvider[];
}

/**
 * The providers to try, in order: the requested list without duplicates, cut after `cpu` and ending
 * in `cpu`, which is always available and so is the last resort.
 */
export function executionProviderOrder(
  requested: readonly ExecutionProviderName[] = DEFAULT_SESSION_OPTIONS.executionProviders,
): ExecutionProviderName[] {
  const order: ExecutionProviderName[] = [];
  for (const provider of requested) {
    if (provider === 'cpu') break;
    if (!order.includes(provider)) order.push(provider);
  }
  order.push('cpu');
  return order;
}

/**
 * Creates an ORT session for `modelPath` on the first provider in {@link executionProviderOrder} that
 * initialises. When even `cpu` fails the model itself is at fault, and this throws
 * `SLUICE_MODEL_LOAD_FAILED` with ORT's reason and the providers rejected on the way.
 */
export async function createSessionWithFallback(
  modelPath: string,
  options: RuntimeSessionOptions,
): Promise<{ readonly session: InferenceSession; readonly selection: ExecutionProviderSelection }> {
  const rejected: RejectedExecutionProvider[] = [];
  const accelerators = executionProviderOrder(options.executionProviders).filter((provider) => provider !== 'cpu');
  for (const provider of accelerators) {
    try {
      const session = await InferenceSession.create(modelPath, toOrtSessionOptions(options, provider));
      return { session, selection: { active: provider, rejected } };
    } catch (error) {
      rejected.push({ provider, reason: reasonOf(error) });
    }
  }
  try {
    const session = await InferenceSession.create(modelPath, toOrtSessionOptions(options, 'cpu'));
    return { session, selection: { active: 'cpu', rejected } };
  } catch (error) {
    throw modelLoadFailed(modelPath, reasonOf(error), { rejectedProviders: rejected }, error);
  }
}
