import type { ConfigLayer, SluiceConfig } from './sluice-config.js';

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mergeValue(base: unknown, over: unknown): unknown {
  // A flag parser leaves unset flags as `undefined`; they must not erase what a lower layer set.
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = mergeValue(base[key], value);
  return merged;
}

/**
 * Applies `layers` over `base`, later layers winning: sections merge key by key, lists and scalars
 * replace, `undefined` values are skipped. Neither `base` nor the layers are modified.
 */
export function mergeConfigLayers(base: SluiceConfig, layers: readonly ConfigLayer[]): SluiceConfig {
  // Each layer is schema-valid and every section of `base` is complete, so the result is complete.
  return layers.reduce<unknown>(mergeValue, base) as SluiceConfig;
}
