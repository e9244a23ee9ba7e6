import type { LogFields } from '../../common/logger.js';

/**
 * The fields of a log line as the JSON members that follow `"time"` (`,"key":value` each), when every
 * value is a string, a number, a boolean or null (undefined ones are left out, as JSON leaves them) and
 * no key is in `reserved`; undefined otherwise. Nearly every line Sluice writes is such a line, and
 * writing its members directly costs a fraction of pino's general serializer, whose work per key (custom
 * serializers and stringifiers looked up by name) these lines never need. Non-finite numbers are
 * written as null, as pino writes them.
 */
export function flatFieldsJson(fields: LogFields, reserved: ReadonlySet<string>): string | undefined {
  let json = '';
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    if (reserved.has(key)) return undefined;
    const value = fields[key];
    switch (typeof value) {
      case 'undefined':
        continue;
      case 'string':
        json += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
        continue;
      case 'number':
        json += `,${JSON.stringify(key)}:${Number.isFinite(value) ? String(value) : 'null'}`;
        continue;
      case 'boolean':
        json += `,${JSON.stringify(key)}:${String(value)}`;
        continue;
      default:
        if (value !== null) return undefined;
        json += `,${JSON.stringify(key)}:null`;
    }
  }
  return json;
}
