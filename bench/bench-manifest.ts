import { dump, load } from 'js-yaml';

/** Batching settings a benchmark copy of a model is served with. */
export interface BenchBatching {
  readonly maxBatchSize: number;
  readonly maxBatchDelayMs: number;
}

/** The `batching` block of a manifest, as far as the benchmark reads it. */
export interface ManifestBatching {
  readonly maxBatchSize?: number;
  readonly maxBatchDelayMs?: number;
  readonly preferredBatchSizes?: readonly number[];
}

function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} is not a mapping`);
  return value as Record<string, unknown>;
}

/** The `batching` block of `manifestText` (empty when it has none). */
export function readManifestBatching(manifestText: string): ManifestBatching {
  const manifest = asRecord(load(manifestText), 'model.yaml');
  if (manifest['batching'] === undefined) return {};
  const batching = asRecord(manifest['batching'], 'model.yaml batching');
  const { maxBatchSize, maxBatchDelayMs, preferredBatchSizes } = batching;
  return {
    ...(typeof maxBatchSize === 'number' ? { maxBatchSize } : {}),
    ...(typeof maxBatchDelayMs === 'number' ? { maxBatchDelayMs } : {}),
    ...(Array.isArray(preferredBatchSizes) ? { preferredBatchSizes: preferredBatchSizes.filter((size) => typeof size === 'number') } : {}),
  };
}

/**
 * `manifestText` with its `batching` replaced by `batching`; everything else is kept. Preferred batch
 * sizes above the new `maxBatchSize` are dropped (the manifest schema refuses them), and the key is left
 * out when none remain.
 */
export function withBatching(manifestText: string, batching: BenchBatching): string {
  const manifest = asRecord(load(manifestText), 'model.yaml');
  const preferred = (readManifestBatching(manifestText).preferredBatchSizes ?? []).filter((size) => size <= batching.maxBatchSize);
  const rewritten = {
    ...manifest,
    batching: {
      maxBatchSize: batching.maxBatchSize,
      maxBatchDelayMs: batching.maxBatchDelayMs,
      ...(preferred.length > 0 ? { preferredBatchSizes: preferred } : {}),
    },
  };
  return dump(rewritten, { lineWidth: -1 });
}

/** `manifestText` with its `runtimeOptions` replaced by `runtimeOptions`; everything else is kept. */
export function withRuntimeOptions(manifestText: string, runtimeOptions: Readonly<Record<string, unknown>>): string {
  const manifest = asRecord(load(manifestText), 'model.yaml');
  return dump({ ...manifest, runtimeOptions }, { lineWidth: -1 });
}
