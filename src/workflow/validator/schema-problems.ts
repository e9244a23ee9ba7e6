import type { ErrorObject } from 'ajv';
import { childPointer } from '../problems/json-pointer.js';
import type { ProblemCollector } from '../problems/problem-collector.js';
import { closestName, suggestName } from '../problems/did-you-mean.js';
import { describeValue } from '../values/describe-value.js';

interface SchemaNode {
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  object: 'a mapping',
  array: 'a list',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

function hintOf(schema: unknown): string {
  const description = (schema as SchemaNode | undefined)?.description ?? 'see docs/workflows.md';
  return description.replace(/\.$/, '');
}

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ');
}

/** One ajv error as a problem in `problems`, at the key or value it concerns. */
function reportOne(error: ErrorObject, problems: ProblemCollector): void {
  const params = error.params as Record<string, unknown>;
  const got = describeValue(error.data);
  const hint = hintOf(error.parentSchema);
  if (error.propertyName !== undefined) {
    problems.error(childPointer(error.instancePath, error.propertyName), `\`${error.propertyName}\` is not a valid name`, hint, 'key');
    return;
  }
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      const allowed = Object.keys((error.parentSchema as SchemaNode).properties ?? {});
      const suggestion = suggestName(key, allowed, 'keys');
      problems.error(childPointer(error.instancePath, key), `unknown key \`${key}\``, suggestion.replace('known keys:', 'allowed here:'), 'key');
      return;
    }
    case 'required': {
      const key = String(params['missingProperty']);
      const property = (error.parentSchema as SchemaNode).properties?.[key];
      problems.error(error.instancePath, `missing key \`${key}\``, hintOf(property), 'key');
      return;
    }
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[]).map((v) => String(v));
      const expected = allowed.length === 1 ? (allowed[0] ?? '') : `one of ${allowed.join(', ')}`;
      problems.error(error.instancePath, `must be ${expected} (got ${got})`, hint);
      return;
    }
    case 'type':
      problems.error(error.instancePath, `must be ${typeWords(params['type'])} (got ${got})`, hint);
      return;
    case 'anyOf':
      problems.error(error.instancePath, `is none of the allowed forms (got ${got})`, hint);
      return;
    case 'minimum':
      problems.error(error.instancePath, `must be at least ${String(params['limit'])} (got ${got})`, hint);
      return;
    case 'maximum':
      problems.error(error.instancePath, `must be at most ${String(params['limit'])} (got ${got})`, hint);
      return;
    case 'minLength':
      problems.error(error.instancePath, 'must not be empty', hint);
      return;
    case 'minProperties':
      problems.error(error.instancePath, `needs at least ${String(params['limit'])} entry`, hint, 'key');
      return;
    case 'maxProperties':
      problems.error(error.instancePath, `has more than ${String(params['limit'])} entries`, hint, 'key');
      return;
    case 'maxItems':
      problems.error(error.instancePath, `has more than ${String(params['limit'])} items`, hint);
      return;
    case 'pattern':
      problems.error(error.instancePath, `${got} is not allowed here`, hint);
      return;
    default:
      problems.error(error.instancePath, `${error.message ?? 'is invalid'} (got ${got})`, hint);
  }
}

/** A missing key next to an unknown key that is its likely misspelling: the unknown key's report says it all. */
function isMisspelledRequiredKey(error: ErrorObject, errors: readonly ErrorObject[]): boolean {
  if (error.keyword !== 'required') return false;
  const missing = String((error.params as Record<string, unknown>)['missingProperty']);
  return errors.some(
    (other) =>
      other.keyword === 'additionalProperties' &&
      other.instancePath === error.instancePath &&
      closestName(String((other.params as Record<string, unknown>)['additionalProperty']), [missing]) === missing,
  );
}

/**
 * Reports ajv's errors (compiled with `allErrors` and `verbose`) as positioned problems. An `anyOf` that
 * failed is reported once, in its own words, instead of once per branch it tried.
 */
export function reportSchemaErrors(errors: readonly ErrorObject[], problems: ProblemCollector): void {
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.schemaPath.replace(/\/anyOf$/, '/anyOf/'));
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'propertyNames') continue;
    if (anyOfPaths.some((path) => error.schemaPath.startsWith(path))) continue;
    if (isMisspelledRequiredKey(error, errors)) continue;
    const key = `${error.instancePath}|${error.keyword}|${JSON.stringify(error.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    reportOne(error, problems);
  }
}
