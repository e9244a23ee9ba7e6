import { describe, expect, it } from '@jest/globals';
import { Ajv, type ErrorObject } from 'ajv';
import { formatKeyPath, formatSchemaError } from '../../../src/json-schema/index.js';

/** The ajv errors of validating `value` against `schema`, compiled the way Sluice compiles its schemas. */
function errorsOf(schema: object, value: unknown): ErrorObject[] {
  const validate = new Ajv({ allErrors: true, verbose: true, strict: true }).compile(schema);
  expect(validate(value)).toBe(false);
  return validate.errors ?? [];
}

function onlyMessage(schema: object, value: unknown): string {
  const errors = errorsOf(schema, value);
  expect(errors).toHaveLength(1);
  return formatSchemaError(errors[0]!);
}

describe('formatKeyPath', () => {
  it('names the top level', () => {
    expect(formatKeyPath('')).toBe('(top level)');
  });

  it('joins property names with dots', () => {
    expect(formatKeyPath('/inference/port')).toBe('inference.port');
  });

  it('writes list indices in brackets', () => {
    expect(formatKeyPath('/models/0/name')).toBe('models[0].name');
    expect(formatKeyPath('/0')).toBe('[0]');
  });

  it('unescapes JSON-pointer escapes', () => {
    expect(formatKeyPath('/paths/a~1b/c~0d')).toBe('paths.a/b.c~d');
  });
});

describe('formatSchemaError', () => {
  const server = {
    type: 'object',
    additionalProperties: false,
    properties: {
      port: { type: 'integer' },
      host: { type: 'string' },
      level: { enum: ['debug', 'info'] },
      models: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } } },
    },
  };

  it('names an unknown key and the keys allowed next to it', () => {
    expect(onlyMessage(server, { prot: 1 })).toBe('`prot` is not a known key (allowed here: port, host, level, models)');
  });

  it('names an unknown key below the top level by its full path', () => {
    const schema = { type: 'object', properties: { tls: { type: 'object', additionalProperties: false, properties: { cert: { type: 'string' } } } } };
    expect(onlyMessage(schema, { tls: { key: 'k' } })).toBe('`tls.key` is not a known key (allowed here: cert)');
  });

  it('names an unknown key that contains a slash or a tilde as it is', () => {
    expect(onlyMessage(server, { 'a/b~c': 1 })).toBe('`a/b~c` is not a known key (allowed here: port, host, level, models)');
  });

  it('says "none" when an object allows no keys at all', () => {
    expect(onlyMessage({ type: 'object', additionalProperties: false }, { x: 1 })).toBe('`x` is not a known key (allowed here: none)');
  });

  it('names a missing required key by its full path', () => {
    expect(onlyMessage(server, { models: [{}] })).toBe('`models[0].name` is required');
  });

  it('lists the allowed values of an enum and shows the value given', () => {
    expect(onlyMessage(server, { level: 'verbose' })).toBe('`level` must be one of "debug", "info" (got "verbose")');
  });

  it('names the expected type and shows the value given', () => {
    expect(onlyMessage(server, { port: '8080' })).toBe('`port` must be integer (got "8080")');
  });

  it('describes lists, objects and null instead of printing them', () => {
    expect(onlyMessage(server, { host: [1] })).toBe('`host` must be string (got a list)');
    expect(onlyMessage(server, { host: { a: 1 } })).toBe('`host` must be string (got an object)');
    expect(onlyMessage(server, { host: null })).toBe('`host` must be string (got null)');
  });

  it('shortens a long string value', () => {
    expect(onlyMessage(server, { port: 'p'.repeat(70) })).toBe(`\`port\` must be integer (got "${'p'.repeat(57)}...")`);
  });

  it('falls back to ajv’s own message for other keywords', () => {
    expect(onlyMessage(server, { models: [{ name: '' }] })).toBe('`models[0].name` must NOT have fewer than 1 characters (got "")');
  });

  it('names the top level when the whole document is wrong', () => {
    expect(onlyMessage(server, 'text')).toBe('`(top level)` must be object (got "text")');
  });
});
