import { describe, expect, it } from '@jest/globals';
import { ERROR_CATEGORIES, ERROR_CODES, SluiceError, isSluiceError, type ErrorCode } from '../../../../src/sdk/errors/index.js';

describe('ERROR_CODES', () => {
  const codes = Object.keys(ERROR_CODES) as ErrorCode[];

  it('gives every code a known category', () => {
    const unknown = codes.filter((code) => !(ERROR_CATEGORIES as readonly string[]).includes(ERROR_CODES[code].category));
    expect(unknown).toEqual([]);
  });

  it('gives every code a TorchServe exception type', () => {
    const untyped = codes.filter((code) => !/^[A-Z][A-Za-z]+Exception$/.test(ERROR_CODES[code].type));
    expect(untyped).toEqual([]);
  });

  it('names every code SLUICE_ in upper snake case', () => {
    expect(codes.filter((code) => !/^SLUICE_[A-Z0-9]+(_[A-Z0-9]+)*$/.test(code))).toEqual([]);
  });
});

describe('SluiceError', () => {
  it('carries its code, message, details and the category of its code', () => {
    const error = new SluiceError('SLUICE_QUEUE_FULL', 'the queue is full', { retryAfterSeconds: 1 });
    expect(error).toMatchObject({
      name: 'SluiceError',
      code: 'SLUICE_QUEUE_FULL',
      message: 'the queue is full',
      details: { retryAfterSeconds: 1 },
      category: 'UNAVAILABLE',
    });
  });

  it('is an Error', () => {
    expect(new SluiceError('SLUICE_INTERNAL', 'x')).toBeInstanceOf(Error);
  });

  it('defaults to empty details', () => {
    expect(new SluiceError('SLUICE_INTERNAL', 'x').details).toEqual({});
  });

  it('keeps its cause', () => {
    const cause = new Error('disk full');
    expect(new SluiceError('SLUICE_INTERNAL', 'x', {}, { cause }).cause).toBe(cause);
  });

  it.each(Object.keys(ERROR_CODES) as ErrorCode[])('takes the category of %s from ERROR_CODES', (code) => {
    expect(new SluiceError(code, 'x').category).toBe(ERROR_CODES[code].category);
  });
});

describe('isSluiceError', () => {
  const error = new SluiceError('SLUICE_MODEL_NOT_FOUND', 'no such model');

  it('recognises a SluiceError', () => {
    expect(isSluiceError(error)).toBe(true);
  });

  it('checks the code when one is given', () => {
    expect(isSluiceError(error, 'SLUICE_MODEL_NOT_FOUND')).toBe(true);
    expect(isSluiceError(error, 'SLUICE_MODEL_VERSION_NOT_FOUND')).toBe(false);
  });

  it('refuses other errors and plain objects that look alike', () => {
    expect(isSluiceError(new Error('no such model'))).toBe(false);
    expect(isSluiceError({ name: 'SluiceError', code: 'SLUICE_MODEL_NOT_FOUND', message: 'x' })).toBe(false);
    expect(isSluiceError(undefined)).toBe(false);
  });
});
