import { SluiceError } from '../sdk/errors/index.js';
import { createSchemaValidator, type SchemaValidator } from '../json-schema/index.js';
import { CONFIG_SCHEMA_FILE } from './config-schema-keys.js';
import type { ConfigLayer } from './sluice-config.js';

let validator: SchemaValidator<ConfigLayer> | undefined;

// V8 repeats the pattern in its message ("Invalid regular expression: /(/: Unterminated group").
const REGEXP_MESSAGE_PREFIX = /^Invalid regular expression: \/.*\/[a-z]*: /s;

function regexpProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(REGEXP_MESSAGE_PREFIX, '');
  }
}

function checkAllowedUrls(patterns: readonly string[], source: string): void {
  const problems = patterns.flatMap((pattern, index) => {
    const reason = regexpProblem(pattern);
    return reason === undefined
      ? []
      : [`\`allowedUrls[${index}]\` is not a valid regular expression: ${JSON.stringify(pattern)} (${reason})`];
  });
  if (problems.length > 0) {
    throw new SluiceError('SLUICE_CONFIG_INVALID', `${source}: ${problems.join('; ')}`, { source, problems });
  }
}

/**
 * Checks what one source (a file, a variable, the command-line flags) sets against
 * `schemas/config.schema.json`, then what the schema cannot say (every `allowedUrls` pattern
 * compiles). Throws `SLUICE_CONFIG_INVALID` with a message that starts with `source` and names
 * every bad key.
 */
export function validateConfigLayer(value: unknown, source: string): ConfigLayer {
  validator ??= createSchemaValidator<ConfigLayer>(CONFIG_SCHEMA_FILE, 'SLUICE_CONFIG_INVALID');
  const layer = validator.validate(value, source);
  if (layer.allowedUrls !== undefined) checkAllowedUrls(layer.allowedUrls, source);
  return layer;
}
