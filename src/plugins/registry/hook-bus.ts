import type { Logger } from '../../sdk/logging/logger.js';
import { HOOK_NAMES, type HookEvents, type HookListener, type HookName } from '../../sdk/hooks/hooks.js';

type AnyListener = (event: never) => void | Promise<void>;

/**
 * The observers of each hook. `emit` calls them after the event without waiting for them; a listener that
 * throws or rejects is logged with its plugin and the caller never sees it. Events are frozen before the
 * first listener sees them. Frozen after start-up.
 */
export class HookBus {
  private readonly listeners = new Map<HookName, { listener: AnyListener; plugin: string }[]>();
  private frozen = false;

  constructor(private readonly logger: Logger) {}

  /** Whether `name` is one of the hooks plugins may observe. */
  static isHookName(name: string): name is HookName {
    return (HOOK_NAMES as readonly string[]).includes(name);
  }

  add<Name extends HookName>(name: Name, listener: HookListener<Name>, plugin: string): void {
    if (this.frozen) throw new Error(`hook ${name} of plugin ${plugin} was added after start-up`);
    const list = this.listeners.get(name) ?? [];
    list.push({ listener: listener, plugin });
    this.listeners.set(name, list);
  }

  freeze(): void {
    this.frozen = true;
  }

  /** Whether anyone listens to `name`, so callers can skip building an event nobody reads. */
  has(name: HookName): boolean {
    return (this.listeners.get(name)?.length ?? 0) > 0;
  }

  emit<Name extends HookName>(name: Name, event: HookEvents[Name]): void {
    const list = this.listeners.get(name);
    if (list === undefined) return;
    // One event object goes to every listener (and a preInfer event into its postInfer): frozen, so a
    // listener that writes to it fails alone instead of changing what the next listener sees.
    Object.freeze(event);
    for (const { listener, plugin } of list) {
      const report = (error: unknown): void => {
        this.logger.warn('a plugin hook failed; the request was not affected', { plugin, hook: name, error: error instanceof Error ? error.message : String(error) });
      };
      try {
        const result = (listener as HookListener<Name>)(event);
        if (result instanceof Promise) result.catch(report);
      } catch (error) {
        report(error);
      }
    }
  }
}
