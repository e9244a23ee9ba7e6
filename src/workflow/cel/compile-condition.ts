import { EvaluationError, ParseError, TypeError as CelTypeError } from '@marcbachmann/cel-js';
import type { Condition } from '../definition/condition.js';
import { conditionEnvironment } from './condition-environment.js';
import { conditionReads, type UnfollowableAccess } from './condition-references.js';

/** Why a `when` expression cannot be used, and where in it. */
export interface ConditionError {
  readonly message: string;
  readonly offset: number;
}

/** A compiled condition, or why the expression does not compile. */
export type CompileConditionResult =
  | { readonly ok: true; readonly condition: Condition; readonly unfollowable: readonly UnfollowableAccess[] }
  | { readonly ok: false; readonly error: ConditionError };

function celFailure(error: unknown): ConditionError | undefined {
  if (error instanceof ParseError || error instanceof CelTypeError || error instanceof EvaluationError) {
    return { message: `does not compile: ${error.summary}`, offset: error.range?.start ?? 0 };
  }
  return undefined;
}

/**
 * Compiles and type-checks a `when` expression in the condition environment (`request`, `nodes`), and
 * finds what it reads. The result type must be `bool` (or `dyn`, checked when it runs).
 */
export function compileCondition(expression: string): CompileConditionResult {
  let parsed: ReturnType<ReturnType<typeof conditionEnvironment>['parse']>;
  try {
    parsed = conditionEnvironment().parse(expression);
  } catch (error) {
    const failure = celFailure(error);
    if (failure === undefined) throw error;
    return { ok: false, error: failure };
  }
  const checked = parsed.check();
  if (!checked.valid) {
    return { ok: false, error: celFailure(checked.error) ?? { message: 'does not compile', offset: 0 } };
  }
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    return { ok: false, error: { message: `gives ${String(checked.type)}, and a condition must give bool`, offset: 0 } };
  }
  const reads = conditionReads(parsed.ast);
  const condition: Condition = {
    expression,
    references: reads.references,
    evaluate: (context) => parsed(context) as unknown,
  };
  return { ok: true, condition, unfollowable: reads.unfollowable };
}
