import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import { fromThreadError, toThreadError } from '../../../../src/serving/handler-pool/thread-error.js';

describe('toThreadError', () => {
  it('keeps the code, message and details of a SluiceError', () => {
    const error = new SluiceError('SLUICE_REQUEST_INVALID', 'bad image', { width: 0 });
    expect(toThreadError(error)).toEqual({ kind: 'sluice', code: 'SLUICE_REQUEST_INVALID', message: 'bad image', details: { width: 0 } });
  });

  it('recognises a SluiceError of another copy of the SDK by its name and code', () => {
    const foreign = Object.assign(new Error('bad image'), { name: 'SluiceError', code: 'SLUICE_REQUEST_INVALID', details: {} });
    expect(toThreadError(foreign)).toMatchObject({ kind: 'sluice', code: 'SLUICE_REQUEST_INVALID' });
  });

  it('treats an error with an unknown code as a plain error', () => {
    const odd = Object.assign(new Error('odd'), { name: 'SluiceError', code: 'NOT_A_CODE' });
    expect(toThreadError(odd)).toMatchObject({ kind: 'error', name: 'SluiceError', message: 'odd' });
  });

  it('drops details that are not JSON', () => {
    const details = { self: {} as Record<string, unknown> };
    details.self.loop = details;
    expect(toThreadError(new SluiceError('SLUICE_REQUEST_INVALID', 'bad', details))).toMatchObject({ details: {} });
  });

  it('keeps the name, message and stack of a plain error', () => {
    const error = new RangeError('too wide');
    expect(toThreadError(error)).toEqual({ kind: 'error', name: 'RangeError', message: 'too wide', stack: error.stack });
  });

  it('keeps the Sluice code a plain error carries', () => {
    const marked = Object.assign(new Error('not a sonnet'), { code: 'SLUICE_REQUEST_INVALID' });
    expect(toThreadError(marked)).toMatchObject({ kind: 'error', name: 'Error', message: 'not a sonnet', code: 'SLUICE_REQUEST_INVALID' });
  });

  it('drops a code that is not a Sluice error code', () => {
    const system = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    expect(toThreadError(system)).not.toHaveProperty('code');
  });

  it('describes a thrown non-error by its string form', () => {
    expect(toThreadError('nope')).toEqual({ kind: 'error', name: 'Error', message: 'nope' });
  });
});

describe('fromThreadError', () => {
  it('revives a SluiceError with its code, message and details', () => {
    const error = fromThreadError({ kind: 'sluice', code: 'SLUICE_REQUEST_INVALID', message: 'bad image', details: { width: 0 } });
    expect(error).toBeInstanceOf(SluiceError);
    expect(error).toMatchObject({ code: 'SLUICE_REQUEST_INVALID', message: 'bad image', details: { width: 0 } });
  });

  it('revives a plain error with the Sluice code it carried', () => {
    const error = fromThreadError({ kind: 'error', name: 'Error', message: 'not a sonnet', code: 'SLUICE_REQUEST_INVALID' });
    expect(error).not.toBeInstanceOf(SluiceError);
    expect(error).toMatchObject({ message: 'not a sonnet', code: 'SLUICE_REQUEST_INVALID' });
  });

  it('revives a plain error with the thread’s name, message and stack', () => {
    const error = fromThreadError({ kind: 'error', name: 'RangeError', message: 'too wide', stack: 'RangeError: too wide\n    at decode' });
    expect(error).not.toBeInstanceOf(SluiceError);
    expect(error).toMatchObject({ name: 'RangeError', message: 'too wide', stack: 'RangeError: too wide\n    at decode' });
  });
});
