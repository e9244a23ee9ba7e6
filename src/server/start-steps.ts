/** One step of a server's start-up: what it starts, and how to stop that again. */
export interface StartStep {
  /** What the step starts, as the start-up's list reads. */
  readonly name: string;
  /** Starts the step's part of the server. */
  start(): Promise<void> | void;
  /**
   * Stops what `start` started, when a later step fails, or when `start` itself failed part way (it then
   * stops what it had started, which may be nothing). Absent for a step that leaves nothing running.
   */
  stop?(): Promise<void>;
}

/**
 * Runs `steps` in order. When one fails, the stops of that step and of every step before it run in
 * reverse order (the last started, the first stopped), then the failure is thrown.
 */
export async function runStartSteps(steps: readonly StartStep[]): Promise<void> {
  const begun: StartStep[] = [];
  for (const step of steps) {
    begun.push(step);
    try {
      await step.start();
    } catch (error) {
      for (const done of begun.reverse()) await done.stop?.();
      throw error;
    }
  }
}
