import type { Binding } from '../definition/value-source.js';
import { ownValue } from '../../sdk/collections/own-property.js';

/** What a run knows about a node when a binding is resolved. */
export type NodeOutcome =
  | { readonly status: 'pending' }
  | { readonly status: 'skipped' }
  | { readonly status: 'done'; readonly outputs: Readonly<Record<string, unknown>> };

/** What a binding reads in a run: the request, node outcomes, and the `forEach` element of the call. */
export interface BindingScope {
  readonly request: Readonly<Record<string, unknown>>;
  outcome(node: string): NodeOutcome;
  /** The element of the current `forEach` call; only read by `$item`. */
  readonly item?: unknown;
}

/** A binding's value, its absence (every alternative skipped or missing), or not known yet. */
export type BindingValue = { readonly status: 'value'; readonly value: unknown } | { readonly status: 'absent' } | { readonly status: 'pending' };

/**
 * Resolves a binding: the first alternative that has a value wins. A request input the request left
 * out, a skipped node, or an output a node did not give moves on to the next alternative; a node that
 * has not settled yet makes the binding pending (a later alternative cannot win before it).
 */
export function resolveBinding(binding: Binding, scope: BindingScope): BindingValue {
  for (const source of binding.alternatives) {
    switch (source.kind) {
      case 'literal':
        return { status: 'value', value: source.value };
      case 'item':
        return { status: 'value', value: scope.item };
      case 'request': {
        const value = ownValue(scope.request, source.input);
        if (value !== undefined) return { status: 'value', value };
        break;
      }
      case 'node': {
        const outcome = scope.outcome(source.node);
        if (outcome.status === 'pending') return { status: 'pending' };
        const value = outcome.status === 'done' ? ownValue(outcome.outputs, source.output) : undefined;
        if (value !== undefined) return { status: 'value', value };
        break;
      }
    }
  }
  return { status: 'absent' };
}
