import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SluiceError, isSluiceError } from '../sdk/errors/index.js';
import type { Logger } from '../sdk/logging/logger.js';
import type { SluiceConfig } from '../config/index.js';
import {
  checkObjectStoreUrl,
  checkRemoteUrl,
  DOWNLOADS_DIR_NAME,
  downloadArchive,
  extractMarArchive,
  extractModelArchive,
  fetchObjectStoreModel,
  isObjectStoreUrl,
  loadManifest,
  loadModelDirectory,
  MANIFEST_FILE_NAME,
  modelExtractedRoot,
  ObjectStoreOpener,
  onnxFileNameOf,
  parseObjectStoreUrl,
  placeOnnxFile,
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

/** What a registration tells the unpacking of its archives. */
export interface ResolveOptions {
  /** The Sluice handler the registration asks for: a TorchServe `.mar` with a custom handler is converted with it. */
  readonly handler?: string | undefined;
}

/** Whether `file` starts as a zip does (a TorchServe `.mar`), rather than as a gzip'd `.sluice`. */
async function isZip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    return bytesRead === 4 && buffer[0] === 0x50 && buffer[1] === 0x4b && (buffer[2] === 0x03 || buffer[2] === 0x05);
  } finally {
    await handle.close();
  }
}

/** A model name from a downloaded file's name (`resnet 18.onnx` → `resnet-18`): the registration's `model_name` may replace it. */
function modelNameFromFile(fileName: string): string {
  const stem = fileName.slice(0, -'.onnx'.length).replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 128);
  return stem === '' ? 'model' : stem;
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
 * The name a model from an object store is served under when its directory has no `model.yaml`: the last
 * segment of the prefix (`s3://models/team/resnet50/` → `resnet50`), or the bucket's name for a whole bucket.
 */
function objectStoreModelName(url: string): string {
  const location = parseObjectStoreUrl(url);
  const last = location.prefix.replace(/\/$/, '').split('/').pop() ?? '';
  return last === '' ? location.bucket : last;
}

/**
 * Turns the `url` of a registration into manifests: model-store names (directories, nested version
 * directories, directories holding only `model.onnx`, `.sluice` archives and `.mar` archives, which are
 * unpacked inside the store), the configured `modelName` (its `modelDir`, which stands in the store's place
 * under that name) or, when allowed by `allowedUrls`, http(s) URLs of archives or of a bare `.onnx` model
 * file (served with a made manifest, as a store directory holding only `model.onnx` is), and object-store
 * URLs (`s3://`, `azure://`) of model directories and archives.
 */
export class ModelSourceResolver {
  private readonly defaults: ManifestDefaults;
  private readonly objectStores: ObjectStoreOpener;

  constructor(
    private readonly config: SluiceConfig,
    private readonly logger?: Logger,
    objectStores?: ObjectStoreOpener,
  ) {
    this.defaults = { workers: config.defaultWorkers };
    this.objectStores = objectStores ?? new ObjectStoreOpener();
  }

  /**
   * Every model version `url` stands for. `headers` go with a download (the registration's trace
   * context), and nowhere else.
   */
  async resolve(url: string, headers?: Readonly<Record<string, string>>, options: ResolveOptions = {}): Promise<ModelSource[]> {
    if (/^https?:\/\//i.test(url)) return [await this.fromRemote(url, headers, options)];
    if (isObjectStoreUrl(url)) return [await this.fromObjectStore(url)];
    if (this.config.modelName !== '' && url === this.config.modelName) return [await this.fromModelDir()];
    const entries = await resolveStoreUrl(this.config.modelStore, url);
    return Promise.all(entries.map((entry) => this.fromEntry(entry, url, options)));
  }

  /** The manifest of one store entry. */
  async fromEntry(entry: StoreEntry, url: string, options: ResolveOptions = {}): Promise<ModelSource> {
    if (entry.source === 'model-file') {
      return { manifest: await loadModelDirectory(entry.path, entry.storeName, this.defaults), origin: { url, dir: entry.path } };
    }
    const dir =
      entry.source === 'archive'
        ? await extractModelArchive(entry.path, this.config.modelStore, this.config.archive)
        : entry.source === 'mar'
          ? await this.fromMar(entry.path, options)
          : entry.path;
    return { manifest: await loadManifest(dir, this.defaults), origin: { url, dir } };
  }

  /** The configured `modelDir`, served under `modelName` (see `loadModelDirectory`). */
  async fromModelDir(): Promise<ModelSource> {
    const { modelDir, modelName } = this.config;
    return { manifest: await loadModelDirectory(modelDir, modelName, this.defaults), origin: { url: modelName, dir: modelDir } };
  }

  /** A source from an already unpacked or downloaded directory (snapshot restore). */
  async fromDirectory(dir: string, url: string): Promise<ModelSource> {
    return { manifest: await this.manifestOf(dir, url), origin: { url, dir } };
  }

  /**
   * A model directory's manifest: its `model.yaml`, or, for a directory an object store gave without one,
   * the manifest `loadModelDirectory` makes for its `model.onnx`.
   */
  private async manifestOf(dir: string, url: string): Promise<ModelManifest> {
    if (!isObjectStoreUrl(url) || existsSync(join(dir, MANIFEST_FILE_NAME))) return loadManifest(dir, this.defaults);
    return loadModelDirectory(dir, objectStoreModelName(url), this.defaults);
  }

  private async fromObjectStore(url: string): Promise<ModelSource> {
    // Checked before anything is made in the store or sent anywhere: a refused URL leaves no trace.
    const location = checkObjectStoreUrl(url, this.config.allowedUrls);
    const fetched = await fetchObjectStoreModel(location, this.objectStores.open(location), {
      storeDir: this.config.modelStore,
      maxBytes: this.config.download.maxBytes,
      timeoutMs: this.config.download.timeoutMs,
      archiveLimits: this.config.archive,
      ...(this.logger !== undefined ? { logger: this.logger } : {}),
    }).catch((error: unknown) => {
      // Sluice's own messages name the URL and the bucket, never a credential.
      const fields = isSluiceError(error) ? { code: error.code, reason: error.message } : { reason: String(error) };
      this.logger?.warn('model source not fetched', { source: url, ...fields });
      throw error;
    });
    return { manifest: await this.manifestOf(fetched.dir, url), origin: { url, dir: fetched.dir } };
  }

  /** A TorchServe `.mar` converted into `<store>/.extracted/`. */
  private async fromMar(file: string, options: ResolveOptions): Promise<string> {
    return extractMarArchive(file, await modelExtractedRoot(this.config.modelStore), this.config.archive, options.handler !== undefined ? { handler: options.handler } : {});
  }

  private async fromRemote(url: string, headers: Readonly<Record<string, string>> | undefined, options: ResolveOptions): Promise<ModelSource> {
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
      const onnxFile = onnxFileNameOf(url);
      if (onnxFile !== undefined && !(await isZip(file))) {
        // A bare model file: served from a directory of its own with a made manifest, as a store directory holding only model.onnx is.
        const name = modelNameFromFile(onnxFile);
        const dir = await placeOnnxFile(file, await modelExtractedRoot(this.config.modelStore), name);
        return { manifest: await loadModelDirectory(dir, name, this.defaults), origin: { url, dir } };
      }
      const unpack = (await isZip(file)) ? this.fromMar(file, options) : extractModelArchive(file, this.config.modelStore, this.config.archive);
      const dir = await unpack.catch((error: unknown) => {
        throw namedAfterUrl(error, file, url);
      });
      return { manifest: await loadManifest(dir, this.defaults), origin: { url, dir } };
    } finally {
      await rm(file, { force: true });
    }
  }
}
