/**
 * A minimal reader of the OTLP trace protobuf (`ExportTraceServiceRequest`): just the fields the tests
 * read, turned into the shape OTLP/HTTP JSON has, so that both encodings are checked the same way.
 */

/** The fields of one message: each field number with its values (varints as numbers, the rest as bytes). */
type Fields = Map<number, (number | Uint8Array)[]>;

const NONE: Fields = new Map();

function readVarint(bytes: Uint8Array, at: { pos: number }): number {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at.pos++];
    if (byte === undefined) throw new Error('truncated varint');
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return value;
    shift += 7;
  }
}

function fieldsOf(bytes: Uint8Array): Fields {
  const fields: Fields = new Map();
  const at = { pos: 0 };
  while (at.pos < bytes.length) {
    const tag = readVarint(bytes, at);
    const field = Math.floor(tag / 8);
    let value: number | Uint8Array | undefined;
    switch (tag & 7) {
      case 0:
        value = readVarint(bytes, at);
        break;
      case 1:
        at.pos += 8;
        break;
      case 2: {
        const length = readVarint(bytes, at);
        value = bytes.subarray(at.pos, at.pos + length);
        at.pos += length;
        break;
      }
      case 5:
        at.pos += 4;
        break;
      default:
        throw new Error(`unsupported wire type in tag ${String(tag)}`);
    }
    if (value !== undefined) fields.set(field, [...(fields.get(field) ?? []), value]);
  }
  return fields;
}

function messages(fields: Fields, field: number): Fields[] {
  return (fields.get(field) ?? []).filter((v): v is Uint8Array => v instanceof Uint8Array).map(fieldsOf);
}

function bytesField(fields: Fields, field: number): Uint8Array | undefined {
  const value = fields.get(field)?.[0];
  return value instanceof Uint8Array ? value : undefined;
}

function text(fields: Fields, field: number): string | undefined {
  const value = bytesField(fields, field);
  return value === undefined ? undefined : Buffer.from(value).toString('utf8');
}

function hex(fields: Fields, field: number): string | undefined {
  const value = bytesField(fields, field);
  return value === undefined || value.length === 0 ? undefined : Buffer.from(value).toString('hex');
}

/** One `KeyValue` as OTLP/HTTP JSON writes it: string, boolean and integer values (integers as numbers). */
function keyValue(kv: Fields): { key: string; value: { stringValue?: string; boolValue?: boolean; intValue?: number } } {
  const value = messages(kv, 2)[0] ?? NONE;
  const number = (field: number): number | undefined => {
    const v = value.get(field)?.[0];
    return typeof v === 'number' ? v : undefined;
  };
  const stringValue = text(value, 1);
  const boolValue = number(2);
  const intValue = number(3);
  return {
    key: text(kv, 1) ?? '',
    value: {
      ...(stringValue !== undefined ? { stringValue } : {}),
      ...(boolValue !== undefined ? { boolValue: boolValue !== 0 } : {}),
      ...(intValue !== undefined ? { intValue } : {}),
    },
  };
}

/**
 * Decodes an `ExportTraceServiceRequest` into the OTLP/HTTP JSON shape: ids as hex; resource attributes
 * with string values only; span attributes with string, boolean and (non-negative) integer values; the
 * status code.
 */
export function decodeOtlpTraces(body: Uint8Array): unknown {
  return {
    resourceSpans: messages(fieldsOf(body), 1).map((rs) => ({
      resource: {
        attributes: messages(messages(rs, 1)[0] ?? NONE, 1).map((kv) => ({
          key: text(kv, 1) ?? '',
          value: { stringValue: text(messages(kv, 2)[0] ?? NONE, 1) },
        })),
      },
      scopeSpans: messages(rs, 2).map((ss) => ({
        spans: messages(ss, 2).map((span) => ({
          traceId: hex(span, 1),
          spanId: hex(span, 2),
          ...(hex(span, 4) !== undefined ? { parentSpanId: hex(span, 4) } : {}),
          name: text(span, 5),
          kind: span.get(6)?.[0] ?? 0,
          attributes: messages(span, 9).map(keyValue),
          links: messages(span, 13).map((link) => ({ traceId: hex(link, 1), spanId: hex(link, 2) })),
          status: { code: (messages(span, 15)[0] ?? NONE).get(3)?.[0] ?? 0 },
        })),
      })),
    })),
  };
}
