/** A node or request value a `when` expression reads. */
export type ConditionReference =
  | { readonly kind: 'request'; readonly input: string; readonly offset: number }
  | { readonly kind: 'node'; readonly node: string; readonly output: string | undefined; readonly offset: number };

/** A compiled `when` expression. */
export interface Condition {
  /** The CEL source, as written. */
  readonly expression: string;
  /** What it reads (offsets into the expression), in order of appearance. */
  readonly references: readonly ConditionReference[];
  /** Evaluates against `{ request, nodes }`; throws when evaluation fails. */
  readonly evaluate: (context: Readonly<Record<string, unknown>>) => unknown;
}
