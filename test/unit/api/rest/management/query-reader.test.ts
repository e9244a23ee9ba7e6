import { describe, expect, it } from '@jest/globals';
import { QueryReader } from '../../../../../src/api/rest/management/query-reader.js';

describe('QueryReader', () => {
  it('refuses unknown parameters, naming them and the allowed ones', () => {
    expect(() => new QueryReader({ min_workers: '1', sync: 'true' }, ['min_worker', 'synchronous'])).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: 'unknown query parameter `min_workers`, `sync`; allowed here: min_worker, synchronous',
      }),
    );
  });

  it('refuses every parameter on a route that takes none', () => {
    expect(() => {
      QueryReader.refuseAll({ bogus: '1' });
    }).toThrow(expect.objectContaining({ code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message: 'unknown query parameter `bogus`; allowed here: none' }));
    expect(() => {
      QueryReader.refuseAll({});
    }).not.toThrow();
  });

  it('reads a string parameter, or undefined when absent', () => {
    const query = new QueryReader({ url: 'iris.sluice' }, ['url', 'model_name']);
    expect(query.string('url')).toBe('iris.sluice');
    expect(query.string('model_name')).toBeUndefined();
  });

  it('refuses a parameter given more than once', () => {
    expect(() => new QueryReader({ url: ['a', 'b'] }, ['url']).string('url')).toThrow(
      expect.objectContaining({ code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message: 'query parameter `url` is given more than once' }),
    );
  });

  it('requires a required string to be present and non-empty', () => {
    expect(new QueryReader({ url: 'x' }, ['url']).requiredString('url')).toBe('x');
    expect(() => new QueryReader({}, ['url']).requiredString('url')).toThrow(
      expect.objectContaining({ code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message: 'query parameter `url` is required' }),
    );
    expect(() => new QueryReader({ url: '' }, ['url']).requiredString('url')).toThrow('query parameter `url` is required');
  });

  it('reads an integer within its bounds', () => {
    const query = new QueryReader({ min_worker: '3', limit: '-2' }, ['min_worker', 'limit', 'max_worker']);
    expect(query.integer('min_worker', 0, 10)).toBe(3);
    expect(query.integer('limit', -5)).toBe(-2);
    expect(query.integer('max_worker', 0)).toBeUndefined();
  });

  it.each([['1.5'], ['abc'], [''], ['1e3'], [' 1'], ['11'], ['-1']])('refuses %p for an integer in [0, 10]', (value) => {
    expect(() => new QueryReader({ n: value }, ['n']).integer('n', 0, 10)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: `query parameter \`n\` must be an integer between 0 and 10, got ${JSON.stringify(value)}`,
      }),
    );
  });

  it('names the default upper bound in the message', () => {
    expect(() => new QueryReader({ n: 'x' }, ['n']).integer('n', 1)).toThrow('must be an integer between 1 and 9007199254740991, got "x"');
  });

  it('reads true and false', () => {
    const query = new QueryReader({ a: 'true', b: 'false' }, ['a', 'b', 'c']);
    expect([query.boolean('a'), query.boolean('b'), query.boolean('c')]).toEqual([true, false, undefined]);
  });

  it.each([['TRUE'], ['1'], ['yes'], ['']])('refuses %p as a boolean', (value) => {
    expect(() => new QueryReader({ synchronous: value }, ['synchronous']).boolean('synchronous')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: `query parameter \`synchronous\` must be true or false, got ${JSON.stringify(value)}`,
      }),
    );
  });

  it('reads a decimal parameter with or without a fraction', () => {
    const query = new QueryReader({ a: '0.25', b: '7' }, ['a', 'b', 'c']);
    expect([query.decimal('a', 0, 10), query.decimal('b', 0, 10), query.decimal('c', 0, 10)]).toEqual([0.25, 7, undefined]);
  });

  it.each(['-1', '1e3', '.5', '5.', '0x10', '', ' 1', '11'])('refuses %j as a decimal between 0 and 10', (value) => {
    expect(() => new QueryReader({ d: value }, ['d']).decimal('d', 0, 10)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: `query parameter \`d\` must be a number between 0 and 10 (fractions allowed, such as 0.5), got ${JSON.stringify(value)}`,
      }),
    );
  });
});
