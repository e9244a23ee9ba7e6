/**
 * Where one value a node or output reads comes from: a request input (`$request.image`), another node's
 * output (`detect.output`), the element of a `forEach` (`$item`), or a literal (`{ value: … }`).
 */
export type ValueSource =
  | { readonly kind: 'request'; readonly input: string }
  | { readonly kind: 'node'; readonly node: string; readonly output: string }
  | { readonly kind: 'item' }
  | { readonly kind: 'literal'; readonly value: unknown };

/**
 * A value read by a node input, a `forEach` or a workflow output: alternatives tried in order
 * (`a.x ?? b.x`); the first whose node was not skipped gives the value. Most bindings have one.
 */
export interface Binding {
  readonly alternatives: readonly ValueSource[];
  /** The JSON pointer of the binding in the file, for problems found later. */
  readonly at: string;
  /** Where each alternative starts in the reference string (0 for a literal). */
  readonly offsets: readonly number[];
}
