import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/common/errors/index.js';
import { pluginFailure } from '../../../../src/plugins/registry/plugin-failure.js';

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
