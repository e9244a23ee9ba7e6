import type { LogFields } from '../../sdk/logging/logger.js';

/**
 * Keys every line sets itself; fields by these names are written as `field.<key>` instead. The trace
 * fields (`trace_id`, `span_id`, `trace_flags`) are not among them: request lines pass their trace
 * explicitly (`traceLogFields`), and those win over the active span's.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['time', 'level', 'msg']);

/**
 * A field's value as a line writes it: an error as its name, message and code (its stack and other
 * properties stay out of the log), a bigint as a string (a JSON number would lose its digits); any other
 * value as it is.
 */
export function logValue(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, ...('code' in value ? { code: value.code } : {}) };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** Whether `fields` can be written as they are: no reserved key, no error, no bigint. */
function alreadyWritable(fields: LogFields): boolean {
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const value = fields[key];
    if (RESERVED_KEYS.has(key) || value instanceof Error || typeof value === 'bigint') return false;
  }
  return true;
}

/**
 * A line's (or a child logger's) fields as they are written: fields named like a key every line sets
 * renamed `field.<key>`, each value through {@link logValue}. Fields that need none of this (nearly every
 * line's) are given back as they are, not copied.
 */
export function lineFields(fields: LogFields): LogFields {
  if (alreadyWritable(fields)) return fields;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) out[RESERVED_KEYS.has(key) ? `field.${key}` : key] = logValue(value);
  return out;
}
