import type { WorkflowClock } from '../../../../src/workflow/index.js';

/**
 * A clock whose `sleep` records the wait and returns at once, so that backoff is observed without
 * waiting; `now` counts up by one per call.
 */
export class RecordingClock implements WorkflowClock {
  readonly sleeps: number[] = [];
  private ticks = 0;

  now(): number {
    return this.ticks++;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return signal.aborted ? Promise.reject(signal.reason as Error) : Promise.resolve();
  }
}
