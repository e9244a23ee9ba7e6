import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withBatching, type BenchBatching } from './bench-manifest.js';

/** A temporary model store, removed by `cleanup`. */
export interface BenchStore {
  readonly dir: string;
  cleanup(): Promise<void>;
}

/** A model directory to copy into a benchmark store. */
export interface BenchStoreEntry {
  /** The model directory (holding `model.yaml`). */
  readonly source: string;
  /** Its directory name in the store. */
  readonly name: string;
  /** Replaces the manifest's batching when given. */
  readonly batching?: BenchBatching;
}

/**
 * Copies model directories into a fresh temporary store, rewriting batching where asked, so that
 * benchmark variants never touch the committed store.
 */
export async function copyModelsToTempStore(entries: readonly BenchStoreEntry[]): Promise<BenchStore> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-store-'));
  const cleanup = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    for (const entry of entries) {
      const target = join(dir, entry.name);
      await cp(entry.source, target, { recursive: true });
      if (entry.batching !== undefined) {
        const manifest = join(target, 'model.yaml');
        await writeFile(manifest, withBatching(await readFile(manifest, 'utf8'), entry.batching));
      }
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { dir, cleanup };
}
