import { SluiceError } from '../../sdk/errors/index.js';

/** What ordering needs of a plugin. */
export interface OrderablePlugin {
  readonly name: string;
  readonly dependencies?: readonly string[];
}

/** Why a plugin cannot be placed: a dependency that is not loaded, or a cycle. */
export interface OrderProblem {
  readonly plugin: string;
  readonly error: SluiceError;
}

/**
 * Orders plugins so each comes after the plugins it depends on; among plugins free to go, by name, so the
 * order never depends on discovery. A plugin with a missing dependency, on a cycle, or depending on such a
 * plugin is left out and reported with a message naming it and its `dependencies` field.
 */
export function orderByDependencies<T extends OrderablePlugin>(plugins: readonly T[]): { ordered: T[]; problems: OrderProblem[] } {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  const problems = new Map<string, SluiceError>();
  const fail = (plugin: string, message: string): void => {
    if (!problems.has(plugin)) problems.set(plugin, new SluiceError('SLUICE_PLUGIN_INVALID', message, { plugin, field: 'dependencies' }));
  };
  for (const p of plugins) {
    for (const dep of p.dependencies ?? []) {
      if (!byName.has(dep)) fail(p.name, `plugin ${p.name}: \`dependencies\` names \`${dep}\`, which is not loaded; install or enable ${dep}, or remove it from the list`);
    }
  }
  const ordered: T[] = [];
  const placed = new Set<string>();
  let remaining = plugins.filter((p) => !problems.has(p.name));
  for (;;) {
    const ready = remaining
      .filter((p) => (p.dependencies ?? []).every((dep) => placed.has(dep)))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (ready.length === 0) break;
    for (const p of ready) {
      ordered.push(p);
      placed.add(p.name);
    }
    remaining = remaining.filter((p) => !placed.has(p.name));
  }
  // Plugins behind a failed dependency fail with it (passes until nothing changes); the rest are on cycles.
  for (let changed = true; changed; ) {
    changed = false;
    for (const p of remaining) {
      const failedDep = problems.has(p.name) ? undefined : (p.dependencies ?? []).find((dep) => problems.has(dep));
      if (failedDep === undefined) continue;
      fail(p.name, `plugin ${p.name}: its dependency \`${failedDep}\` could not be loaded`);
      changed = true;
    }
  }
  for (const p of remaining) {
    fail(p.name, `plugin ${p.name}: \`dependencies\` form a cycle (${cycleFrom(p.name, byName).join(' → ')}); break it`);
  }
  return { ordered, problems: [...problems].filter(([name]) => byName.has(name)).map(([plugin, error]) => ({ plugin, error })) };
}

function cycleFrom(start: string, byName: ReadonlyMap<string, OrderablePlugin>): string[] {
  const path: string[] = [];
  let current: string | undefined = start;
  while (current !== undefined && !path.includes(current)) {
    path.push(current);
    current = byName.get(current)?.dependencies?.find((dep) => byName.has(dep));
  }
  return current === undefined ? path : [...path.slice(path.indexOf(current)), current];
}
