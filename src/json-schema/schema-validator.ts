import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { SluiceError, type ErrorCode } from '../sdk/errors/index.js';
import { packageRoot } from '../package-files/package-root.js';
import { formatSchemaError } from './schema-error-format.js';

/** Validates a parsed document against one of the JSON Schemas in `schemas/`. */
export interface SchemaValidator<T> {
  /**
   * Returns `value` typed as `T`, or throws `SluiceError(errorCode)` whose message starts with `source`
   * (a file name or variable) and lists every problem with its key.
   */
  validate(value: unknown, source: string): T;
}

/** Every problem of a failed validation as sentences, deduplicated, in schema order. */
export function schemaProblems(errors: readonly ErrorObject[] | null | undefined): string[] {
  // oneOf/anyOf add a summary error after their branches' own errors; the branches say more.
  const useful = (errors ?? []).filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if');
  return [...new Set(useful.map(formatSchemaError))];
}

/**
 * Compiles `schemas/<fileName>` once. Schemas are the source of truth for every file format Sluice reads.
 */
export function createSchemaValidator<T>(fileName: string, errorCode: ErrorCode): SchemaValidator<T> {
  const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', fileName), 'utf8')) as object;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, useDefaults: false });
  const check: ValidateFunction = ajv.compile(schema);
  return {
    validate(value: unknown, source: string): T {
      if (check(value)) return value as T;
      const problems = schemaProblems(check.errors);
      throw new SluiceError(errorCode, `${source}: ${problems.join('; ')}`, { source, problems });
    },
  };
}
