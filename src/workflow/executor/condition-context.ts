import { EvaluationError } from '@marcbachmann/cel-js';
import type { Condition } from '../definition/condition.js';
import { describeValue } from '../values/describe-value.js';
import { conditionValue } from '../values/condition-value.js';
import { ownValue, setOwn } from '../../sdk/collections/own-property.js';
import type { BindingScope } from './resolve-binding.js';

/**
 * The `{ request, nodes }` a `when` expression is evaluated against. Only what the expression reads is
 * converted: the request inputs it names, and for each node it names that ran, the outputs it names
 * (a skipped node is absent from `nodes`, so `has(nodes.x)` tells whether it ran).
 */
export function conditionContext(condition: Condition, scope: BindingScope): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  const nodes: Record<string, Record<string, unknown>> = {};
  for (const reference of condition.references) {
    if (reference.kind === 'request') {
      const value = ownValue(scope.request, reference.input);
      if (value !== undefined) setOwn(request, reference.input, conditionValue(value));
      continue;
    }
    const outcome = scope.outcome(reference.node);
    if (outcome.status !== 'done') continue;
    let outputs = ownValue(nodes, reference.node);
    if (outputs === undefined) {
      outputs = {};
      setOwn(nodes, reference.node, outputs);
    }
    const value = reference.output === undefined ? undefined : ownValue(outcome.outputs, reference.output);
    if (reference.output !== undefined && value !== undefined) setOwn(outputs, reference.output, conditionValue(value));
  }
  return { request, nodes };
}

/** Evaluates `condition`, which must give true or false; throws saying why it could not be evaluated. */
export function evaluateCondition(condition: Condition, scope: BindingScope): boolean {
  let result: unknown;
  try {
    result = condition.evaluate(conditionContext(condition, scope));
  } catch (error) {
    if (error instanceof EvaluationError) throw new Error(`\`when\` could not be evaluated: ${error.summary}`, { cause: error });
    throw error;
  }
  if (typeof result !== 'boolean') {
    throw new Error(`\`when\` gave ${typeof result === 'bigint' ? result.toString() : describeValue(result)}, not true or false`);
  }
  return result;
}
