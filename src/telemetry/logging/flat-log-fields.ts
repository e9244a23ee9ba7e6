import type { LogFields } from '../../sdk/logging/logger.js';

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
        json += memberStart(key) + JSON.stringify(value);
        continue;
      case 'number':
        json += memberStart(key) + (Number.isFinite(value) ? String(value) : 'null');
        continue;
      case 'boolean':
        json += memberStart(key) + String(value);
        continue;
      default:
        if (value !== null) return undefined;
        json += memberStart(key) + 'null';
    }
  }
  return json;
}

/** Field names seen so far, with their `,"key":`: lines repeat a few dozen names, and spelling one costs more than looking it up. */
const memberStarts = new Map<string, string>();
/** Names kept at most, so that lines with ever new names (a handler's own fields) cannot grow the map without end. */
const MEMBER_STARTS_KEPT = 1024;

/** `,"key":` for the member `key`. */
function memberStart(key: string): string {
  let start = memberStarts.get(key);
  if (start === undefined) {
    start = `,${JSON.stringify(key)}:`;
    if (memberStarts.size < MEMBER_STARTS_KEPT) memberStarts.set(key, start);
  }
  return start;
}
