import type { ModelDescription } from '../model/model-description.js';

/** Facts about one inference call, for observing hooks. */
export interface InferHookEvent {
  readonly model: ModelDescription;
  /** `predictions`, `v1`, `v2`, `grpc` or `workflow`. */
  readonly api: string;
  /** The request id the client sees (REST: the `x-request-id` answered), when the call came in over HTTP. */
  readonly requestId?: string;
}

/** The closed list of hooks and what each receives. */
export interface HookEvents {
  onModelLoad: { readonly model: ModelDescription };
  onModelUnload: { readonly model: ModelDescription };
  preInfer: InferHookEvent;
  postInfer: InferHookEvent & { readonly durationMs: number; readonly ok: boolean; readonly errorCode?: string };
  onWorkflowNodeEnd: {
    readonly workflow: string;
    readonly node: string;
    readonly status: 'succeeded' | 'failed' | 'skipped';
    readonly attempts: number;
    readonly durationMs: number;
  };
}

/** A hook name: one of {@link HOOK_NAMES}. */
export type HookName = keyof HookEvents;

/** Every hook a plugin may observe; registering any other name is an error. */
export const HOOK_NAMES: readonly HookName[] = ['onModelLoad', 'onModelUnload', 'preInfer', 'postInfer', 'onWorkflowNodeEnd'];

/**
 * An observer. Hooks observe and cannot change a request; one that throws or rejects is logged and the
 * request goes on. They run after the event, off the request's critical path.
 */
export type HookListener<Name extends HookName> = (event: HookEvents[Name]) => void | Promise<void>;
