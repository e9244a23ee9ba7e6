import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import { envelopeWithPluginErrors, pluginFailure } from '../../../../src/plugins/registry/plugin-failure.js';
import type { EnvelopeEntries } from '../../../../src/sdk/envelope/envelope.js';

describe('pluginFailure', () => {
  it('keeps a deliberate Sluice error', () => {
    const error = new SluiceError('SLUICE_REQUEST_INVALID', 'bad body');
    expect(pluginFailure('p', 'handler `h`', error)).toBe(error);
  });

  it('keeps the code of an error whose code is a Sluice code, naming the plugin', () => {
    const error = Object.assign(new Error('send a number'), { code: 'SLUICE_REQUEST_INVALID' });
    expect(pluginFailure('p', 'handler `h`', error)).toMatchObject({ code: 'SLUICE_REQUEST_INVALID', message: 'send a number', details: { plugin: 'p' } });
  });

  it('turns anything else into SLUICE_PLUGIN_FAILED naming the plugin and what failed', () => {
    expect(pluginFailure('p', 'envelope `e` (decode)', new TypeError('x is undefined'))).toMatchObject({
      code: 'SLUICE_PLUGIN_FAILED',
      message: 'plugin p: envelope `e` (decode) failed: x is undefined',
      details: { plugin: 'p' },
    });
    expect(pluginFailure('p', 'handler `h`', Object.assign(new Error('disk'), { code: 'EIO' })).code).toBe('SLUICE_PLUGIN_FAILED');
    expect(pluginFailure('p', 'handler `h`', new SluiceError('SLUICE_HANDLER_FAILED', 'generic')).code).toBe('SLUICE_PLUGIN_FAILED');
  });
});

describe('envelopeWithPluginErrors', () => {
  const request = { body: new Uint8Array(), contentType: 'application/json' };
  const context = { model: { name: 'm', version: '1', inputs: [], outputs: [] } };
  const base = { name: 'e', decode: () => [], encode: () => ({ body: null }) };

  it('has no decodeEntries when the envelope has none', () => {
    expect('decodeEntries' in envelopeWithPluginErrors(base, 'p')).toBe(false);
  });

  it('passes decodeEntries on, called on the envelope itself', () => {
    const envelope = {
      ...base,
      listName: 'rows',
      decodeEntries(this: { listName: string }) {
        return { listName: this.listName, requests: [{ body: 1, contentType: 'application/json' }] };
      },
    };
    expect(envelopeWithPluginErrors(envelope, 'p').decodeEntries?.(request, context)).toEqual({ listName: 'rows', requests: [{ body: 1, contentType: 'application/json' }] });
  });

  it('reports a decodeEntries that throws, or answers no list, as the plugin failing', () => {
    const throwing = { ...base, decodeEntries: (): never => { throw new TypeError('x is undefined'); } };
    expect(() => envelopeWithPluginErrors(throwing, 'p').decodeEntries?.(request, context)).toThrow('plugin p: envelope `e` (decodeEntries) failed: x is undefined');
    const listless = { ...base, decodeEntries: () => ({ requests: [] }) as unknown as EnvelopeEntries };
    expect(() => envelopeWithPluginErrors(listless, 'p').decodeEntries?.(request, context)).toThrow('plugin p: envelope `e` (decodeEntries) failed: it returned no {listName, requests}');
  });
});
