import type { ErrorCode } from '../../sdk/errors/index.js';
import type { Tensor, TensorSpec } from '../../sdk/tensor/index.js';
import type { RuntimeSessionOptions } from '../../sdk/runtime/model-runtime.js';
import type { ExecutionProviderSelection } from './execution-provider.js';

/** A `SluiceError` as it crosses threads (structured cloning keeps only an error's message). */
export interface SessionThreadError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** From the owner to the session thread; `id` pairs each request with its reply. */
export type SessionThreadRequest =
  | { readonly kind: 'load'; readonly id: number; readonly modelPath: string; readonly options: RuntimeSessionOptions }
  | {
      readonly kind: 'run';
      readonly id: number;
      readonly session: number;
      readonly inputs: readonly Tensor[];
      readonly outputNames: readonly string[];
      /** The input buffers moved rather than copied, to be moved back with the answer. */
      readonly lent: readonly ArrayBuffer[];
    }
  | { readonly kind: 'release'; readonly id: number; readonly session: number };

/** From the session thread to the owner. */
export type SessionThreadReply =
  | {
      readonly kind: 'loaded';
      readonly id: number;
      readonly session: number;
      readonly inputs: readonly TensorSpec[];
      readonly outputs: readonly TensorSpec[];
      readonly selection: ExecutionProviderSelection;
      /** The session thread's `worker_threads.threadId`. */
      readonly threadId: number;
    }
  | { readonly kind: 'ran'; readonly id: number; readonly outputs: readonly Tensor[]; readonly lent: readonly ArrayBuffer[] }
  | { readonly kind: 'released'; readonly id: number }
  | { readonly kind: 'failed'; readonly id: number; readonly error: SessionThreadError; readonly lent: readonly ArrayBuffer[] };
