import type { ChildProcess } from 'node:child_process';

/** The IPC message a `sluice start --foreground` child sends its parent once every port listens. */
const SERVING_NOTICE = 'sluice:serving';

/** How a background start ended: its own server serves, it exited first, or the wait ran out. */
export type StartOutcome =
  | { readonly kind: 'serving' }
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'timeout' };

function isServingNotice(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === SERVING_NOTICE;
}

/**
 * Tells the parent, when this process was started with an IPC channel (by `sluice start`), that the server
 * listens on every port. Anything else listening on the same ports cannot send this, so the parent never
 * mistakes another server for its own.
 */
export function announceServing(): void {
  if (process.send === undefined || !process.connected) return;
  // A parent that is gone already is no failure of the server.
  process.send({ type: SERVING_NOTICE }, undefined, {}, () => undefined);
  // The channel must not keep the process alive after the server stops.
  process.channel?.unref();
}

/**
 * Waits until `child` announces it serves ({@link announceServing}), exits, or `waitMs` pass, whichever
 * comes first; then lets go of the child (IPC channel closed, not waited for).
 */
export function waitForServing(child: ChildProcess, waitMs: number): Promise<StartOutcome> {
  return new Promise<StartOutcome>((resolve) => {
    const finish = (outcome: StartOutcome): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
      if (child.connected) child.disconnect();
      child.unref();
      resolve(outcome);
    };
    const onMessage = (message: unknown): void => {
      if (isServingNotice(message)) finish({ kind: 'serving' });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      finish({ kind: 'exited', code, signal });
    };
    // A process that could not be spawned at all.
    const onError = (): void => {
      finish({ kind: 'exited', code: null, signal: null });
    };
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
    }, waitMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
