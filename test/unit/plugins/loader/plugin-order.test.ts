import { describe, expect, it } from '@jest/globals';
import { orderByDependencies } from '../../../../src/plugins/loader/plugin-order.js';

const plugin = (name: string, ...dependencies: string[]): { name: string; dependencies: string[] } => ({ name, dependencies });
const names = (list: readonly { name: string }[]): string[] => list.map((p) => p.name);

describe('orderByDependencies', () => {
  //   auth ──▶ metrics-ui        (metrics-ui depends on auth)
  //   zeta, alpha                (independent)
  it('puts each plugin after its dependencies, and free plugins by name', () => {
    const { ordered, problems } = orderByDependencies([plugin('metrics-ui', 'auth'), plugin('zeta'), plugin('auth'), plugin('alpha')]);
    expect(names(ordered)).toEqual(['alpha', 'auth', 'zeta', 'metrics-ui']);
    expect(problems).toEqual([]);
  });

  it('leaves out a plugin whose dependency is not loaded, naming both', () => {
    const { ordered, problems } = orderByDependencies([plugin('a', 'ghost'), plugin('b')]);
    expect(names(ordered)).toEqual(['b']);
    expect(problems.map((p) => [p.plugin, p.error.message])).toEqual([
      ['a', 'plugin a: `dependencies` names `ghost`, which is not loaded; install or enable ghost, or remove it from the list'],
    ]);
  });

  //   c ──▶ b ──▶ a ──▶ (missing)
  it('leaves out every plugin behind a failed dependency, whatever the input order', () => {
    const { ordered, problems } = orderByDependencies([plugin('c', 'b'), plugin('b', 'a'), plugin('a', 'missing')]);
    expect(ordered).toEqual([]);
    expect(problems.map((p) => p.error.message).sort()).toEqual([
      'plugin a: `dependencies` names `missing`, which is not loaded; install or enable missing, or remove it from the list',
      'plugin b: its dependency `a` could not be loaded',
      'plugin c: its dependency `b` could not be loaded',
    ]);
  });

  //   x ──▶ y ──▶ z ──▶ x
  it('reports a cycle with its path', () => {
    const { ordered, problems } = orderByDependencies([plugin('x', 'y'), plugin('y', 'z'), plugin('z', 'x'), plugin('free')]);
    expect(names(ordered)).toEqual(['free']);
    expect(problems.find((p) => p.plugin === 'x')?.error.message).toBe('plugin x: `dependencies` form a cycle (x → y → z → x); break it');
    expect(problems.every((p) => p.error.code === 'SLUICE_PLUGIN_INVALID')).toBe(true);
  });
});
