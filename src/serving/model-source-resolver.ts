import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SluiceError, isSluiceError } from '../sdk/errors/index.js';
import type { SluiceConfig } from '../config/index.js';
import {
  checkRemoteUrl,
  DOWNLOADS_DIR_NAME,
  downloadArchive,
  extractModelArchive,
  loadManifest,
  resolveStoreUrl,
  type ManifestDefaults,
  type ModelManifest,
  type StoreEntry,
} from '../model-store/index.js';
import type { ModelOrigin } from './model-version.js';

/** A manifest ready to load and where it came from. */
export interface ModelSource {
  readonly manifest: ModelManifest;
  readonly origin: ModelOrigin;
}

/**
 * An error about the downloaded archive `file` as one about `url`: the user gave the URL, and the file was
 * a temporary one of the server's, gone by the time they read the message.
 */
function namedAfterUrl(error: unknown, file: string, url: string): unknown {
  const path = resolve(file);
  if (!isSluiceError(error) || !error.message.startsWith(path)) return error;
  const renamed = (text: string): string => (text.startsWith(path) ? url + text.slice(path.length) : text);
  const details = Object.fromEntries(Object.entries(error.details).map(([key, value]) => [key, typeof value === 'string' ? renamed(value) : value]));
  return new SluiceError(error.code, renamed(error.message), details, { cause: error });
}

/**
 * Turns the `url` of a registration into manifests: model-store names (directories, nested version
 * directories, `.sluice` archives, which are unpacked inside the store) or, when allowed by
 * `allowedUrls`, http(s) URLs of archives.
 */
export class ModelSourceResolver {
  private readonly defaults: ManifestDefaults;

  constructor(private readonly config: SluiceConfig) {
    this.defaults = { workers: config.defaultWorkers };
  }

  /**
   * Every model version `url` stands for. `headers` go with a download (the registration's trace
   * context), and nowhere else.
   */
  async resolve(url: string, headers?: Readonly<Record<string, string>>): Promise<ModelSource[]> {
    if (/^https?:\/\//i.test(url)) return [await this.fromRemote(url, headers)];
    const entries = await resolveStoreUrl(this.config.modelStore, url);
    return Promise.all(entries.map((entry) => this.fromEntry(entry, url)));
  }

  /** The manifest of one store entry. */
  async fromEntry(entry: StoreEntry, url: string): Promise<ModelSource> {
    const dir = entry.source === 'archive' ? await extractModelArchive(entry.path, this.config.modelStore, this.config.archive) : entry.path;
    return { manifest: await loadManifest(dir, this.defaults), origin: { url, dir } };
  }

  /** A source from an already unpacked directory (snapshot restore). */
  async fromDirectory(dir: string, url: string): Promise<ModelSource> {
    return { manifest: await loadManifest(dir, this.defaults), origin: { url, dir } };
  }

  private async fromRemote(url: string, headers: Readonly<Record<string, string>> | undefined): Promise<ModelSource> {
    // Checked before anything is made in the store: a refused URL leaves no trace there.
    checkRemoteUrl(url, this.config.allowedUrls);
    const downloads = join(this.config.modelStore, DOWNLOADS_DIR_NAME);
    await mkdir(downloads, { recursive: true });
    const file = join(downloads, `${randomBytes(8).toString('hex')}.sluice`);
    try {
      await downloadArchive(url, file, {
        maxBytes: this.config.download.maxBytes,
        timeoutMs: this.config.download.timeoutMs,
        allowedPatterns: this.config.allowedUrls,
        ...(headers !== undefined ? { headers } : {}),
      });
      const dir = await extractModelArchive(file, this.config.modelStore, this.config.archive).catch((error: unknown) => {
        throw namedAfterUrl(error, file, url);
      });
      return { manifest: await loadManifest(dir, this.defaults), origin: { url, dir } };
    } finally {
      await rm(file, { force: true });
    }
  }
}
