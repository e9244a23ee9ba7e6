import { describe, expect, it } from '@jest/globals';
import { parseBindingText } from '../../../../src/workflow/validator/binding-syntax.js';

describe('parseBindingText', () => {
  it('reads a request input', () => {
    expect(parseBindingText('$request.image')).toEqual({ ok: true, alternatives: [{ kind: 'request', input: 'image' }], offsets: [0] });
  });

  it('reads a node output, everything after the first dot being the output', () => {
    expect(parseBindingText('detect.logits.0')).toEqual({ ok: true, alternatives: [{ kind: 'node', node: 'detect', output: 'logits.0' }], offsets: [0] });
  });

  it('reads $item', () => {
    expect(parseBindingText('$item')).toEqual({ ok: true, alternatives: [{ kind: 'item' }], offsets: [0] });
  });

  it('reads alternatives with their offsets', () => {
    expect(parseBindingText('fast.label ?? slow.label ?? $request.default')).toEqual({
      ok: true,
      alternatives: [
        { kind: 'node', node: 'fast', output: 'label' },
        { kind: 'node', node: 'slow', output: 'label' },
        { kind: 'request', input: 'default' },
      ],
      offsets: [0, 14, 28],
    });
  });

  it.each([
    ['$request', '`$request` names no input', 'write `$request.<input>`', 0],
    ['$request.', '`$request.` names no input', 'write `$request.<input>`', 0],
    ['$request.a b', '`$request.a b` is not a valid input reference', 'input names are letters, digits, `_` and `-`', 0],
    ['$item.box', '`$item.box` reads a field of `$item`', 'bind `$item` itself; a handler can pick fields out of it', 0],
    ['$env.HOME', '`$env` is not a known variable', 'the variables are `$request` and `$item`', 0],
    ['detect', '`detect` names no output', 'write `detect.<output>`', 0],
    ['a b', '`a b` is not a reference', 'write `$request.<input>`, `<node>.<output>` or `$item`; put literal values in `{ value: ... }`', 0],
    ['1.5', '`1.5` is not a reference', 'write `$request.<input>`, `<node>.<output>` or `$item`; put literal values in `{ value: ... }`', 0],
    ['a.x ?? ', 'has an empty alternative', 'put a reference on both sides of `??`', 7],
    ['a.x ?? b', '`b` names no output', 'write `b.<output>`', 7],
  ])('refuses %j: %s', (text, message, hint, offset) => {
    expect(parseBindingText(text)).toEqual({ ok: false, error: { message, hint, offset } });
  });
});
