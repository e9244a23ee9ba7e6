import { InferenceSession, env } from 'onnxruntime-node';
import {
  type ExecutionProviderName,
  type ExecutionProviderSelection,
  type RejectedExecutionProvider,
  type RuntimeSessionOptions,
} from '../../sdk/runtime/model-runtime.js';
import { modelLoadFailed, reasonOf } from './model-load-error.js';
import { DEFAULT_SESSION_OPTIONS, toOrtSessionOptions } from './session-options.js';

/** Declared in the plugin SDK, so that executors from plugins can read why providers were passed over. */
export type { ExecutionProviderSelection, RejectedExecutionProvider };

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
  // ONNX Runtime's own logger, read when its first session is created in this thread, writes a provider
  // that fails to load to stderr as raw coloured text; the failure reaches the log as a provider's reason.
  env.logLevel = 'fatal';
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
