import { describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { createSchemaValidator, schemaProblems } from '../../../src/json-schema/index.js';

describe('schemaProblems', () => {
  it('gives nothing for no errors', () => {
    expect(schemaProblems(null)).toEqual([]);
    expect(schemaProblems(undefined)).toEqual([]);
  });

  it('leaves out the summary errors of oneOf and anyOf, keeping their branches’ problems', () => {
    const validate = new Ajv({ allErrors: true, verbose: true, strict: true }).compile({
      type: 'object',
      properties: { workers: { anyOf: [{ type: 'integer' }, { enum: ['auto'] }] } },
    });
    validate({ workers: 'many' });
    expect(schemaProblems(validate.errors)).toEqual(['`workers` must be integer (got "many")', '`workers` must be one of "auto" (got "many")']);
  });

  it('leaves out the summary error of if/then', () => {
    const validate = new Ajv({ allErrors: true, verbose: true, strict: true }).compile({
      type: 'object',
      properties: { gpus: { if: { type: 'string' }, then: { enum: ['all'] } } },
    });
    validate({ gpus: 'some' });
    expect(schemaProblems(validate.errors)).toEqual(['`gpus` must be one of "all" (got "some")']);
  });

  it('says each problem once', () => {
    const validate = new Ajv({ allErrors: true, verbose: true, strict: true }).compile({
      type: 'object',
      properties: { x: { anyOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] } },
    });
    validate({ x: 1 });
    expect(schemaProblems(validate.errors)).toEqual(['`x` must be string (got 1)']);
  });
});

describe('createSchemaValidator', () => {
  const validator = createSchemaValidator<{ format: number }>('snapshot.schema.json', 'SLUICE_SNAPSHOT_INVALID');
  const valid = { format: 1, createdAt: '2024-01-02T03:04:05Z', models: [] };

  it('returns a valid document as it is', () => {
    expect(validator.validate(valid, 'snapshot.json')).toBe(valid);
  });

  it('throws the given code, naming the source and every problem', () => {
    expect(() => validator.validate({ ...valid, format: 'one', extra: true }, 'snapshot.json')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_SNAPSHOT_INVALID',
        message: 'snapshot.json: `extra` is not a known key (allowed here: format, createdAt, workflows, models); `format` must be integer (got "one"); `format` must be equal to constant (got "one")',
        details: {
          source: 'snapshot.json',
          problems: [
            '`extra` is not a known key (allowed here: format, createdAt, workflows, models)',
            '`format` must be integer (got "one")',
            '`format` must be equal to constant (got "one")',
          ],
        },
      }),
    );
  });
});
