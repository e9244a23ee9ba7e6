import type { Context } from '@opentelemetry/api';

/**
 * A trace context as a chain of single entries: setting a value adds one small link instead of copying
 * every entry into a new map, as the API's default context does. A request sets a handful of values
 * (the caller's span context, its own span, the server's tracer, each stage's span), so lookups walk a
 * few links and setting costs one allocation.
 */
class ChainedContext implements Context {
  constructor(
    private readonly parent: ChainedContext | undefined,
    private readonly key: symbol | undefined,
    private readonly value: unknown,
  ) {}

  getValue(key: symbol): unknown {
    if (this.key === key) return this.value;
    for (let link = this.parent; link !== undefined; link = link.parent) {
      if (link.key === key) return link.value;
    }
    return undefined;
  }

  setValue(key: symbol, value: unknown): Context {
    return new ChainedContext(this, key, value);
  }

  deleteValue(key: symbol): Context {
    return new ChainedContext(this, key, undefined);
  }
}

/** The empty context the contexts of traced requests grow from. */
export const CHAINED_ROOT_CONTEXT: Context = new ChainedContext(undefined, undefined, undefined);
