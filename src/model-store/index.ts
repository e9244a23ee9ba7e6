export {
  ALL_VERSIONS,
  MANIFEST_FILE_NAME,
  type BatchingSettings,
  type DeviceName,
  type ModelManifest,
  type RawModelManifest,
  type WorkerSettings,
} from './manifest/model-manifest.js';
export { completeManifest, loadManifest, modelNamePattern, type ManifestDefaults } from './manifest/manifest-loader.js';
export { loadModelDirectory, MADE_MANIFEST_VERSION, MODEL_FILE_NAME } from './manifest/model-directory.js';
export { readLabels } from './manifest/labels-reader.js';
export { isPathInside } from './fs/path-containment.js';

export { ARCHIVE_EXTENSION, MAR_FILE_EXTENSION, type StoreEntry, type StoreEntrySource } from './store/store-entry.js';
export { scanModelStore, scanStoreName } from './store/model-store-scanner.js';
export {
  DOWNLOADS_DIR_NAME,
  removeStaleTemporaries,
  STALE_TEMPORARY_AGE_MS,
  storeTemporaries,
  temporariesBeside,
  type TemporariesSwept,
} from './store/stale-temporaries.js';
export { resolveStoreUrl } from './store/store-url-resolver.js';
export { onnxFileNameOf, placeOnnxFile } from './store/onnx-file-placement.js';
export { checkObjectStoreUrl, checkRemoteUrl, checkResolvedAddress, isForbiddenAddress } from './store/remote-url-policy.js';
export { isObjectStoreUrl, parseObjectStoreUrl, type ObjectStoreLocation, type ObjectStoreScheme } from './sources/object-store-url.js';
export type { ObjectStore, StoredObject } from './sources/object-store.js';
export { ObjectStoreOpener } from './sources/object-store-opener.js';
export {
  fetchObjectStoreFile,
  fetchObjectStoreModel,
  type FetchedFile,
  type FetchedSource,
  type ObjectStoreFetchOptions,
  type ObjectStoreFileOptions,
} from './sources/object-store-fetcher.js';
export { SOURCES_DIR_NAME } from './sources/source-dirs.js';
export { DownloadProgress, PROGRESS_INTERVAL_MS } from './sources/download-progress.js';
export {
  downloadArchive,
  MAX_DOWNLOAD_REDIRECTS,
  type DownloadOptions,
  type DownloadResult,
  type HostLookup,
} from './store/archive-downloader.js';

export {
  ARCHIVE_FORMAT,
  ARCHIVE_MANIFEST_NAME,
  DEFAULT_ARCHIVE_LIMITS,
  type ArchiveFileRecord,
  type ArchiveLimits,
  type ArchiveManifest,
} from './archive/archive-format.js';
export { packArchive, packModelArchive, type PackResult } from './archive/archive-packer.js';
export { extractArchive, extractModelArchive, EXTRACTED_DIR_NAME, modelExtractedRoot, type ArchiveContent } from './archive/archive-extractor.js';
export { extractMarArchive, importMarArchive } from './mar/mar-extractor.js';
export { convertMar, EXPORT_GUIDE, MAR_HANDLER_MAP, type MarConversion, type MarConversionOptions } from './mar/mar-conversion.js';
export type { ArchiveIdentity, ArchiveKind } from './archive/archive-format.js';

export { SNAPSHOT_FORMAT, type Snapshot, type SnapshotModel, type SnapshotWorkflow } from './snapshot/snapshot.js';
export { SnapshotStore } from './snapshot/snapshot-store.js';
