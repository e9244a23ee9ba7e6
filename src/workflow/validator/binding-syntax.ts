import type { ValueSource } from '../definition/value-source.js';

/** A reference string that could not be read: what is wrong, what to do, and where in the string. */
export interface BindingSyntaxError {
  readonly message: string;
  readonly hint: string;
  /** Offset of the offending alternative in the string. */
  readonly offset: number;
}

/** The alternatives of a reference string, or why it cannot be read. */
export type BindingSyntaxResult =
  | { readonly ok: true; readonly alternatives: readonly ValueSource[]; readonly offsets: readonly number[] }
  | { readonly ok: false; readonly error: BindingSyntaxError };

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const REFERENCE_FORMS = 'write `$request.<input>`, `<node>.<output>` or `$item`; put literal values in `{ value: ... }`';

function parseTerm(term: string, offset: number): ValueSource | BindingSyntaxError {
  if (term === '') return { message: 'has an empty alternative', hint: 'put a reference on both sides of `??`', offset };
  if (term === '$item') return { kind: 'item' };
  if (term.startsWith('$item.') || term.startsWith('$item[')) {
    return { message: `\`${term}\` reads a field of \`$item\``, hint: 'bind `$item` itself; a handler can pick fields out of it', offset };
  }
  if (term === '$request' || term === '$request.') {
    return { message: `\`${term}\` names no input`, hint: 'write `$request.<input>`', offset };
  }
  if (term.startsWith('$request.')) {
    const input = term.slice('$request.'.length);
    if (NAME.test(input)) return { kind: 'request', input };
    return { message: `\`${term}\` is not a valid input reference`, hint: 'input names are letters, digits, `_` and `-`', offset };
  }
  if (term.startsWith('$')) {
    const variable = /^\$[A-Za-z0-9_]*/.exec(term)?.[0] ?? term;
    return { message: `\`${variable}\` is not a known variable`, hint: 'the variables are `$request` and `$item`', offset };
  }
  const dot = term.indexOf('.');
  if (dot < 0) {
    if (NAME.test(term)) return { message: `\`${term}\` names no output`, hint: `write \`${term}.<output>\``, offset };
    return { message: `\`${term}\` is not a reference`, hint: REFERENCE_FORMS, offset };
  }
  const node = term.slice(0, dot);
  const output = term.slice(dot + 1);
  if (!NAME.test(node) || output === '' || /\s/.test(output)) return { message: `\`${term}\` is not a reference`, hint: REFERENCE_FORMS, offset };
  return { kind: 'node', node, output };
}

/**
 * Reads a reference string: one or more alternatives separated by `??`, each `$request.<input>`,
 * `<node>.<output>` (the output is everything after the first dot) or `$item`.
 */
export function parseBindingText(text: string): BindingSyntaxResult {
  const alternatives: ValueSource[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const raw of text.split('??')) {
    const lead = raw.length - raw.trimStart().length;
    const parsed = parseTerm(raw.trim(), offset + lead);
    if ('message' in parsed) return { ok: false, error: parsed };
    alternatives.push(parsed);
    offsets.push(offset + lead);
    offset += raw.length + 2;
  }
  return { ok: true, alternatives, offsets };
}
