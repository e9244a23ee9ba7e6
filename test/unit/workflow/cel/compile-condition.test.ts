import { describe, expect, it } from '@jest/globals';
import { compileCondition } from '../../../../src/workflow/cel/compile-condition.js';

describe('compileCondition', () => {
  it('compiles a boolean expression over request and nodes', () => {
    const result = compileCondition('request.threshold > 0.5 && nodes["detect-prep"].pixels.size() > 0');
    expect(result.ok).toBe(true);
  });

  it('evaluates against { request, nodes }', () => {
    const result = compileCondition('request.score > 0.5');
    if (!result.ok) throw new Error(result.error.message);
    expect(result.condition.evaluate({ request: { score: 0.7 }, nodes: {} })).toBe(true);
    expect(result.condition.evaluate({ request: { score: 0.2 }, nodes: {} })).toBe(false);
  });

  it('lists what the expression reads, with offsets', () => {
    const result = compileCondition('request.loud && nodes.fast.score < 0.9 && has(nodes.slow)');
    if (!result.ok) throw new Error(result.error.message);
    expect(result.condition.references).toEqual([
      { kind: 'request', input: 'loud', offset: 0 },
      { kind: 'node', node: 'fast', output: 'score', offset: 16 },
      { kind: 'node', node: 'slow', output: undefined, offset: 46 },
    ]);
  });

  it('reads bracketed names', () => {
    const result = compileCondition('nodes["detect-prep"]["pixels"].size() > 0 && request["x"] == 1');
    if (!result.ok) throw new Error(result.error.message);
    expect(result.condition.references).toEqual([
      { kind: 'node', node: 'detect-prep', output: 'pixels', offset: 0 },
      { kind: 'request', input: 'x', offset: 45 },
    ]);
  });

  it('reports computed keys as unfollowable', () => {
    const result = compileCondition('nodes[request.which].x == 1 && size(request) > 0');
    if (!result.ok) throw new Error(result.error.message);
    expect(result.unfollowable).toEqual([
      { variable: 'nodes', offset: 0 },
      { variable: 'request', offset: 36 },
    ]);
  });

  it.each([
    ['request.x &&', 'does not compile: Unexpected token: EOF', 12],
    ['$request.x', 'does not compile: Unexpected character: $', 0],
    ['item > 1', 'does not compile: Unknown variable: item', 0],
    ['1 + 2', 'gives int, and a condition must give bool', 0],
    ['"yes"', 'gives string, and a condition must give bool', 0],
  ])('refuses %j: %s', (expression, message, offset) => {
    expect(compileCondition(expression)).toEqual({ ok: false, error: { message, offset } });
  });
});
