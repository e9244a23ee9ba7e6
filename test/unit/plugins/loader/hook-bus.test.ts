import { describe, expect, it } from '@jest/globals';
import { HookBus } from '../../../../src/plugins/registry/hook-bus.js';
import { RecordingLogger } from '../../../support/recording-logger.js';

const model = { name: 'iris', version: '1.0', inputs: [], outputs: [] };

describe('HookBus', () => {
  it('tells every listener of a hook, in the order they were added', () => {
    const bus = new HookBus(new RecordingLogger());
    const seen: string[] = [];
    bus.add('onModelLoad', (e) => void seen.push(`a:${e.model.name}`), 'a');
    bus.add('onModelLoad', (e) => void seen.push(`b:${e.model.name}`), 'b');
    bus.emit('onModelLoad', { model });
    expect(seen).toEqual(['a:iris', 'b:iris']);
  });

  it('logs a listener that throws or rejects with its plugin, and goes on', async () => {
    const logger = new RecordingLogger();
    const bus = new HookBus(logger);
    const seen: string[] = [];
    bus.add('onModelUnload', () => {
      throw new Error('sync failure');
    }, 'thrower');
    bus.add('onModelUnload', () => Promise.reject(new Error('async failure')), 'rejecter');
    bus.add('onModelUnload', () => void seen.push('still told'), 'fine');
    expect(() => {
      bus.emit('onModelUnload', { model });
    }).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['still told']);
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => [l.fields['plugin'], l.fields['error']])).toEqual([
      ['thrower', 'sync failure'],
      ['rejecter', 'async failure'],
    ]);
  });

  it('gives the next listener the event as emitted when one tries to change it', () => {
    const logger = new RecordingLogger();
    const bus = new HookBus(logger);
    const seen: string[] = [];
    bus.add('preInfer', (e) => {
      (e as { api: string }).api = 'rewritten';
    }, 'writer');
    bus.add('preInfer', (e) => void seen.push(e.api), 'reader');
    bus.emit('preInfer', { model, api: 'v2' });
    expect(seen).toEqual(['v2']);
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.fields['plugin'])).toEqual(['writer']);
  });

  it('knows only the closed list of hooks', () => {
    expect(HookBus.isHookName('postInfer')).toBe(true);
    expect(HookBus.isHookName('onFullMoon')).toBe(false);
  });

  it('refuses listeners once frozen', () => {
    const bus = new HookBus(new RecordingLogger());
    bus.freeze();
    expect(() => {
      bus.add('preInfer', () => undefined, 'late');
    }).toThrow('hook preInfer of plugin late was added after start-up');
  });
});
