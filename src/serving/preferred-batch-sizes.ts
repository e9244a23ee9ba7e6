import { SluiceError } from '../sdk/errors/index.js';
import type { SettingOverrides } from './model-loader.js';
import type { VersionSettings } from './version-settings.js';

function invalidArgument(message: string): SluiceError {
  return new SluiceError('SLUICE_MANAGEMENT_INVALID_ARGUMENT', message);
}

function repeated(sizes: readonly number[]): number | undefined {
  return sizes.find((size, index) => sizes.indexOf(size) !== index);
}

/**
 * Refuses `preferred_batch_sizes` that break the manifest's rule for `batching.preferredBatchSizes` (each
 * size once, each at most the batch size) by the request alone: a size given twice, or one above the
 * `batch_size` given with it. Needs no manifest, so it runs before anything is downloaded.
 */
export function checkGivenPreferredBatchSizes(overrides: SettingOverrides): void {
  const { preferredBatchSizes, batchSize } = overrides;
  if (preferredBatchSizes === undefined) return;
  const twice = repeated(preferredBatchSizes);
  if (twice !== undefined) throw invalidArgument(`\`preferred_batch_sizes\` gives ${twice} more than once; give each size once`);
  const above = batchSize === undefined ? undefined : preferredBatchSizes.find((size) => size > batchSize);
  if (above !== undefined) {
    throw invalidArgument(
      `\`preferred_batch_sizes\` holds ${above}, more than \`batch_size\` (${batchSize}); give sizes from 1 to ${batchSize}, or a larger batch_size`,
    );
  }
}

/**
 * Refuses a registration that gives only one of `batch_size` and `preferred_batch_sizes` when the other,
 * from the manifest (or the executor's defaults), breaks the same rule with it. `settings` are the ones the
 * version would load with; `model` names it.
 */
export function checkPreferredBatchSizesAgainst(overrides: SettingOverrides, settings: VersionSettings, model: string): void {
  const givenSizes = overrides.preferredBatchSizes !== undefined;
  if (givenSizes === (overrides.batchSize !== undefined)) return;
  const { batchSize, preferredBatchSizes } = settings;
  const above = preferredBatchSizes.filter((size) => size > batchSize);
  if (above.length === 0) return;
  if (givenSizes) {
    throw invalidArgument(
      `\`preferred_batch_sizes\` holds ${above.join(', ')}, more than the batch size ${model} runs with (${batchSize}, from its manifest's batching.maxBatchSize or its executor); give sizes from 1 to ${batchSize}, or batch_size as well`,
    );
  }
  throw invalidArgument(
    `\`batch_size\` (${batchSize}) is below the preferred batch sizes of ${model} (${preferredBatchSizes.join(', ')}, from its manifest's batching.preferredBatchSizes); give a batch_size of at least ${Math.max(...above)}, or preferred_batch_sizes as well (empty for none)`,
  );
}
