/** Name of the archive's own manifest, at the archive root next to the model's files. */
export const ARCHIVE_MANIFEST_NAME = 'SLUICE-ARCHIVE.json';

/** The archive layout version written by this Sluice and the only one it reads. */
export const ARCHIVE_FORMAT = 1;

/** One file of an archive as `SLUICE-ARCHIVE.json` records it. */
export interface ArchiveFileRecord {
  /** `/`-separated, relative to the archive root. */
  readonly path: string;
  readonly size: number;
  /** Lowercase hex. */
  readonly sha256: string;
}

/** What an archive holds: a model directory (`model.yaml` at its root) or a workflow (`workflow.yaml`). */
export type ArchiveKind = 'model' | 'workflow';

/** The name, version and kind an archive is packed under. */
export interface ArchiveIdentity {
  readonly name: string;
  readonly version: string;
  readonly kind: ArchiveKind;
}

/** `SLUICE-ARCHIVE.json`, as `schemas/archive-manifest.schema.json` describes it. */
export interface ArchiveManifest {
  readonly format: typeof ARCHIVE_FORMAT;
  /** Absent in model archives (the first kind there was), `workflow` in workflow archives. */
  readonly kind?: ArchiveKind;
  readonly name: string;
  readonly version: string;
  /** ISO-8601 time the archive was packed. */
  readonly createdAt: string;
  /** Every file of the archive except `SLUICE-ARCHIVE.json` itself, in archive order. */
  readonly files: readonly ArchiveFileRecord[];
}

/** Limits applied while unpacking an archive that may come from anyone. */
export interface ArchiveLimits {
  /** Largest single file, in bytes. */
  readonly maxEntryBytes: number;
  /** Largest sum of all file sizes, in bytes. */
  readonly maxTotalBytes: number;
  /** Most tar entries (files and directories). */
  readonly maxEntries: number;
}

const GIB = 1024 * 1024 * 1024;

/** The limits used when none are given: 2 GiB per file, 4 GiB in all, 10 000 entries. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = Object.freeze({
  maxEntryBytes: 2 * GIB,
  maxTotalBytes: 4 * GIB,
  maxEntries: 10_000,
});
