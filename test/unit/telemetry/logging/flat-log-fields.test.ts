import { describe, expect, it } from '@jest/globals';
import { flatFieldsJson } from '../../../../src/telemetry/logging/flat-log-fields.js';

const RESERVED = new Set(['time', 'level', 'msg']);

/** The members `flatFieldsJson` writes, read back as an object. */
function parsed(json: string | undefined): unknown {
  return json === undefined ? undefined : JSON.parse(`{"first":0${json}}`);
}

describe('flatFieldsJson', () => {
  it('writes strings, numbers, booleans and null as JSON members, in the fields’ order', () => {
    const json = flatFieldsJson({ method: 'POST', status: 200, latencyMs: 0.125, cached: false, route: null }, RESERVED);
    expect(json).toBe(',"method":"POST","status":200,"latencyMs":0.125,"cached":false,"route":null');
  });

  it('leaves undefined fields out', () => {
    expect(flatFieldsJson({ model: 'mlp', workflow: undefined, errorCode: undefined }, RESERVED)).toBe(',"model":"mlp"');
  });

  it('writes non-finite numbers as null', () => {
    expect(parsed(flatFieldsJson({ a: Number.NaN, b: Infinity, c: -Infinity }, RESERVED))).toEqual({ first: 0, a: null, b: null, c: null });
  });

  it('escapes quotes, backslashes, line ends, control characters and keys', () => {
    const value = 'say "hi"\\\n\t\u0001 – 推論 🚀';
    const json = flatFieldsJson({ [`odd "key"`]: value }, RESERVED);
    expect(parsed(json)).toEqual({ first: 0, 'odd "key"': value });
  });

  it.each([
    ['an object', { shape: [1, 2] }],
    ['an error', { error: new Error('no') }],
    ['a bigint', { n: 1n }],
    ['a reserved key', { msg: 'other' }],
  ])('leaves fields with %s to the general serializer', (_title, fields) => {
    expect(flatFieldsJson(fields, RESERVED)).toBeUndefined();
  });

  it('writes nothing for no fields', () => {
    expect(flatFieldsJson({}, RESERVED)).toBe('');
  });

  it('writes every name of a line with more distinct names than it remembers, each escaped', () => {
    const fields = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k"${i}`, i]));
    expect(JSON.parse(`{${flatFieldsJson(fields, RESERVED)?.slice(1) ?? ''}}`)).toEqual(fields);
  });
});
