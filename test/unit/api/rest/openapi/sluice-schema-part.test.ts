import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaPartOf, sluiceSchemaPart } from '../../../../../src/api/rest/openapi/schemas/sluice-schema-part.js';
import { packageRoot } from '../../../../../src/package-files/package-root.js';

const MODEL = {
  properties: {
    inputs: { type: 'array', items: { $ref: '#/definitions/tensorSpec' }, default: [] },
    pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
    odd: { $ref: '#/definitions/other' },
  },
  definitions: { tensorSpec: { type: 'object' }, other: { type: 'string' } },
};

describe('parts of Sluice’s JSON Schemas reused in the OpenAPI description', () => {
  it('are the schema file’s own, read from schemas/', () => {
    const file = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'model.schema.json'), 'utf8')) as { definitions: { tensorSpec: unknown } };
    expect(sluiceSchemaPart('model.schema.json', '/definitions/tensorSpec')).toEqual(file.definitions.tensorSpec);
  });

  it('point their references to shared definitions at the component schemas', () => {
    expect(schemaPartOf(MODEL, 'model.schema.json', '/properties/inputs')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/TensorSpec' }, default: [] });
  });

  it('leave out the annotations asked', () => {
    expect(schemaPartOf(MODEL, 'model.schema.json', '/properties/inputs', ['default'])).toEqual({ type: 'array', items: { $ref: '#/components/schemas/TensorSpec' } });
  });

  it('refuse a reference to a definition the description does not share, naming it', () => {
    expect(() => schemaPartOf(MODEL, 'model.schema.json', '/properties/odd')).toThrow('schemas/model.schema.json/properties/odd: $ref #/definitions/other is not among the shared definitions');
  });

  it('refuse a draft-07 tuple, which 2020-12 would read as another shape', () => {
    expect(() => schemaPartOf(MODEL, 'model.schema.json', '/properties/pair')).toThrow('schemas/model.schema.json/properties/pair: the keyword `items` cannot be reused');
  });

  it('refuse a pointer to nothing', () => {
    expect(() => schemaPartOf(MODEL, 'model.schema.json', '/properties/missing')).toThrow('schemas/model.schema.json has no schema at /properties/missing');
  });
});
