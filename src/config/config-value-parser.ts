import { SluiceError } from '../sdk/errors/index.js';
import type { ConfigKeyInfo, ConfigSchemaNode } from './config-schema-keys.js';

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const TRUE_WORDS = new Set(['true', '1']);
const FALSE_WORDS = new Set(['false', '0']);

function invalid(source: string, key: string, expected: string, raw: string): SluiceError {
  const message = `${source}: \`${key}\` must be ${expected} (got ${JSON.stringify(raw)})`;
  return new SluiceError('SLUICE_CONFIG_INVALID', message, { source, key });
}

function parseScalar(type: string | undefined, raw: string, key: string, source: string): unknown {
  switch (type) {
    case 'integer': {
      if (!INTEGER.test(raw)) throw invalid(source, key, 'integer', raw);
      // A number holds integers exactly only up to 2^53 - 1: a longer one would be rounded without a word.
      const value = Number(raw);
      if (!Number.isSafeInteger(value)) throw invalid(source, key, `an integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`, raw);
      return value;
    }
    case 'number': {
      if (!NUMBER.test(raw)) throw invalid(source, key, 'number', raw);
      const value = Number(raw);
      if (!Number.isFinite(value)) throw invalid(source, key, 'a finite number', raw);
      return value;
    }
    case 'boolean': {
      const word = raw.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      throw invalid(source, key, 'true, false, 1 or 0', raw);
    }
    default:
      return raw;
  }
}

function parseList(list: ConfigSchemaNode, raw: string, key: string, source: string): unknown {
  if (raw.trimStart().startsWith('[')) {
    try {
      return JSON.parse(raw) as unknown;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new SluiceError('SLUICE_CONFIG_INVALID', `${source}: \`${key}\` is not a valid JSON list (${reason})`, {
        source,
        key,
      });
    }
  }
  // Comma-separated: the form that is convenient in a shell; JSON covers items containing commas.
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item, index) => parseScalar(list.items?.type, item, `${key}[${index}]`, source));
}

function parseObject(raw: string, key: string, source: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SluiceError('SLUICE_CONFIG_INVALID', `${source}: \`${key}\` is not a valid JSON object (${reason})`, { source, key });
  }
}

/**
 * Turns the text of an environment variable (or any string source) into the value the schema
 * expects for `info`: integers and numbers strictly (an integer beyond 2^53 - 1, which a number cannot
 * hold exactly, and a number too large to be finite are refused), booleans from `true`/`false`/`1`/`0`, lists
 * from JSON when the text starts with `[` and from comma-separated items otherwise, maps (`modelSettings`)
 * from JSON; a text that is
 * one of a key's allowed string constants (`models: all`) stays a string. The result still needs
 * schema validation; this only throws when the text cannot be read as the expected type, with a
 * message that starts with `source`.
 */
export function parseConfigValue(info: ConfigKeyInfo, raw: string, source: string): unknown {
  const { schema } = info;
  const branches = [schema, ...(schema.oneOf ?? []), ...(schema.anyOf ?? []), schema.then, schema.else].filter(
    (branch) => branch !== undefined,
  );
  if (branches.some((branch) => branch.enum?.includes(raw) === true)) return raw;
  if (branches.some((branch) => branch.type === 'object')) return parseObject(raw, info.key, source);
  const list = branches.find((branch) => branch.type === 'array');
  if (list !== undefined) return parseList(list, raw, info.key, source);
  return parseScalar(branches.find((branch) => branch.type !== undefined)?.type, raw, info.key, source);
}
