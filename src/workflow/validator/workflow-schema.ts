import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { packageRoot } from '../../package-files/package-root.js';

let compiled: ValidateFunction | undefined;

/** `schemas/workflow.schema.json`, compiled once; the schema is the source of truth for the format's keys. */
export function workflowSchema(): ValidateFunction {
  if (compiled === undefined) {
    const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'workflow.schema.json'), 'utf8')) as object;
    // Bindings are a string or a `{ value }` mapping: one schema with a union type words errors best.
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, useDefaults: false });
    compiled = ajv.compile(schema);
  }
  return compiled;
}
