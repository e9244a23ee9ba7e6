import type { ErrorObject } from 'ajv';

/** Renders an ajv instance path (`/inference/port`, `/models/0`) as a readable key (`inference.port`, `models[0]`). */
export function formatKeyPath(instancePath: string): string {
  if (instancePath === '') return '(top level)';
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}

/** The readable path of `key` below `instancePath`; the key is escaped as a JSON-pointer segment first. */
function childPath(instancePath: string, key: string): string {
  return formatKeyPath(`${instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
}

/** Turns one ajv error (compiled with `verbose: true`) into a sentence naming the key and what is allowed. */
export function formatSchemaError(error: ErrorObject): string {
  const key = formatKeyPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const unknown = String(params['additionalProperty']);
      const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
      const allowed = properties ? Object.keys(properties).join(', ') : 'none';
      return `\`${childPath(error.instancePath, unknown)}\` is not a known key (allowed here: ${allowed})`;
    }
    case 'required':
      return `\`${childPath(error.instancePath, String(params['missingProperty']))}\` is required`;
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      return `\`${key}\` must be one of ${allowed} (got ${describeValue(error.data)})`;
    }
    case 'type':
      return `\`${key}\` must be ${String(params['type'])} (got ${describeValue(error.data)})`;
    default:
      return `\`${key}\` ${error.message ?? 'is invalid'} (got ${describeValue(error.data)})`;
  }
}
