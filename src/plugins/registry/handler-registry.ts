import { SluiceError } from '../../common/errors/index.js';
import type { Handler } from '../sdk/handler.js';

/** Handlers by name. Duplicates are refused; after `freeze()` nothing more can be added. */
export class HandlerRegistry {
  private readonly handlers = new Map<string, { handler: Handler; origin: string }>();
  private frozen = false;

  /** Adds a handler; `origin` names where it came from for duplicate errors. */
  register(handler: Handler, origin: string): void {
    if (this.frozen) throw new SluiceError('SLUICE_INTERNAL', `handler \`${handler.name}\` from ${origin} was registered after start-up`);
    const existing = this.handlers.get(handler.name);
    if (existing) {
      throw new SluiceError(
        'SLUICE_CONFIG_INVALID',
        `handler \`${handler.name}\` is provided by both ${existing.origin} and ${origin}; remove one of them`,
      );
    }
    this.handlers.set(handler.name, { handler, origin });
  }

  /** Refuses further registrations. */
  freeze(): void {
    this.frozen = true;
  }

  /** The handler called `name`, or a `SLUICE_MANIFEST_INVALID` error listing the known ones. */
  get(name: string): Handler {
    const entry = this.handlers.get(name);
    if (entry === undefined) {
      throw new SluiceError('SLUICE_MANIFEST_INVALID', `unknown handler \`${name}\`; known handlers: ${this.names().join(', ')}`);
    }
    return entry.handler;
  }

  /** Registered handler names, sorted. */
  names(): string[] {
    return [...this.handlers.keys()].sort();
  }
}
