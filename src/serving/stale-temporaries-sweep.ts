import { resolve } from 'node:path';
import type { Logger } from '../sdk/logging/logger.js';
import type { SluiceConfig } from '../config/index.js';
import { removeStaleTemporaries, storeTemporaries, temporariesBeside } from '../model-store/index.js';

/**
 * Removes what a server killed mid-work (`kill -9` while unpacking an archive, say) left in the model and
 * workflow stores and beside the snapshot: unpacking directories, downloads and half-written files that
 * nothing has changed for an hour (`STALE_TEMPORARY_AGE_MS`; a younger one may be another running server's
 * sharing the store). Each removal is logged; one that fails is logged as a warning and stops nothing.
 */
export async function sweepStaleTemporaries(config: Pick<SluiceConfig, 'modelStore' | 'workflowStore' | 'snapshot'>, logger: Logger): Promise<void> {
  const stores = [...new Set([resolve(config.modelStore), resolve(config.workflowStore)])];
  const paths: string[] = [];
  for (const found of [...stores.map((store) => storeTemporaries(store)), temporariesBeside(resolve(config.snapshot.file))]) {
    try {
      paths.push(...(await found));
    } catch (error) {
      logger.warn('could not look for stale temporaries', { error });
    }
  }
  const { removed, failed } = await removeStaleTemporaries(paths);
  for (const path of removed) logger.info('stale temporary removed', { path });
  for (const { path, error } of failed) logger.warn('stale temporary could not be removed', { path, error });
}
