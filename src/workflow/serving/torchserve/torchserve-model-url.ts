import { isSluiceError } from '../../../sdk/errors/index.js';
import { ARCHIVE_EXTENSION, MAR_FILE_EXTENSION, resolveStoreUrl } from '../../../model-store/index.js';

/**
 * What a TorchServe spec's model `url` registers. An http(s) URL is downloaded as it is (a `.mar` there is
 * sniffed and converted). A store name `X.mar` is the first of the store directory `X`, the archive
 * `X.sluice` and the archive `X.mar` itself (converted) that the store holds, so a spec written for
 * TorchServe finds a model already converted into the store; when none is there, `X.mar` as given, whose
 * registration then says what the store holds. Any other name is used as it is.
 */
export async function specModelUrl(url: string, modelStore: string): Promise<string> {
  if (/^https?:\/\//i.test(url) || !url.endsWith(MAR_FILE_EXTENSION) || url.length === MAR_FILE_EXTENSION.length) return url;
  const stem = url.slice(0, -MAR_FILE_EXTENSION.length);
  for (const candidate of [stem, `${stem}${ARCHIVE_EXTENSION}`, url]) {
    try {
      await resolveStoreUrl(modelStore, candidate);
      return candidate;
    } catch (error) {
      // Only "not in the store" moves on: a name the store refuses is refused for every candidate alike.
      if (!isSluiceError(error, 'SLUICE_MANIFEST_NOT_FOUND')) throw error;
    }
  }
  return url;
}

/** The separator TorchServe puts between a workflow's name and its model's: `<workflow>__<model>`. */
export const WORKFLOW_MODEL_SEPARATOR = '__';

/** The name a spec's model node is registered under, as TorchServe names it, so two workflows' models never collide. */
export function specModelName(workflow: string, node: string): string {
  return `${workflow}${WORKFLOW_MODEL_SEPARATOR}${node}`;
}
