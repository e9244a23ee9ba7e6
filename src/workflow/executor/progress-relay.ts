import type { Logger } from '../../sdk/logging/logger.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Hands a run's progress to its consumer (a streaming API) until the consumer fails — throws, or returns
 * a promise that rejects. It is then detached and told nothing more, with one warning logged: reporting
 * progress is a courtesy to the client and never fails the run. A client that went away cancels the run
 * through the run's signal, not through this.
 */
export class ProgressRelay<Progress extends { readonly node: string }> {
  private consumer: ((progress: Progress) => unknown) | undefined;

  constructor(
    consumer: ((progress: Progress) => unknown) | undefined,
    private readonly workflow: string,
    private readonly logger: Logger,
  ) {
    this.consumer = consumer;
  }

  /** Tells the consumer of one step (a finished `forEach` call, a settled node), unless it has failed before. */
  report(progress: Progress): void {
    const consumer = this.consumer;
    if (consumer === undefined) return;
    try {
      const returned: unknown = consumer(progress);
      if (isThenable(returned)) {
        returned.then(undefined, (error: unknown) => {
          this.detach(progress.node, error);
        });
      }
    } catch (error) {
      this.detach(progress.node, error);
    }
  }

  private detach(node: string, error: unknown): void {
    if (this.consumer === undefined) return;
    this.consumer = undefined;
    this.logger.warn('workflow progress could not be reported; the run goes on without reporting more', { workflow: this.workflow, node, error: messageOf(error) });
  }
}
