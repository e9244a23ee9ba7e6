import { createSchemaValidator, type SchemaValidator } from '../../common/schema/index.js';
import { errorMessage } from '../fs/error-facts.js';
import { normalizeArchivePath } from './archive-entry-path.js';
import { archiveError, REPACK_ADVICE } from './archive-errors.js';
import { ARCHIVE_MANIFEST_NAME, type ArchiveFileRecord, type ArchiveManifest } from './archive-format.js';
import type { UnpackedFile } from './archive-unpacker.js';

let validator: SchemaValidator<ArchiveManifest> | undefined;

function archiveManifestValidator(): SchemaValidator<ArchiveManifest> {
  validator ??= createSchemaValidator<ArchiveManifest>('archive-manifest.schema.json', 'SLUICE_ARCHIVE_INVALID');
  return validator;
}

/** Parses and schema-checks `SLUICE-ARCHIVE.json`; every error names the archive. */
export function parseArchiveManifest(archive: string, bytes: Buffer | undefined): ArchiveManifest {
  if (bytes === undefined) {
    throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `has no ${ARCHIVE_MANIFEST_NAME}, so it was not made by Sluice; ${REPACK_ADVICE}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `${ARCHIVE_MANIFEST_NAME} is not valid JSON (${errorMessage(error)}); ${REPACK_ADVICE}`);
  }
  return archiveManifestValidator().validate(value, `${archive}: ${ARCHIVE_MANIFEST_NAME}`);
}

function listedFiles(archive: string, manifest: ArchiveManifest): Map<string, ArchiveFileRecord> {
  const listed = new Map<string, ArchiveFileRecord>();
  for (const record of manifest.files) {
    const normalised = normalizeArchivePath(record.path);
    if (!normalised.ok || normalised.path !== record.path || record.path === ARCHIVE_MANIFEST_NAME) {
      throw archiveError('SLUICE_ARCHIVE_UNSAFE_PATH', archive, `${ARCHIVE_MANIFEST_NAME} lists the path ${JSON.stringify(record.path)}, which is not a plain relative path; ${REPACK_ADVICE}`);
    }
    if (listed.has(record.path)) {
      throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `${ARCHIVE_MANIFEST_NAME} lists ${JSON.stringify(record.path)} twice; ${REPACK_ADVICE}`);
    }
    listed.set(record.path, record);
  }
  return listed;
}

/**
 * Checks that the unpacked files are exactly those `SLUICE-ARCHIVE.json` lists, with the listed
 * sizes and SHA-256 digests. Any difference means the archive was damaged or changed after
 * packing.
 */
export function verifyArchiveFiles(archive: string, manifest: ArchiveManifest, files: ReadonlyMap<string, UnpackedFile>): void {
  const listed = listedFiles(archive, manifest);
  for (const [path, file] of files) {
    const record = listed.get(path);
    if (record === undefined) {
      throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `holds ${JSON.stringify(path)}, which ${ARCHIVE_MANIFEST_NAME} does not list; the archive was changed after packing: ${REPACK_ADVICE}`, { entry: path });
    }
    if (record.size !== file.size) {
      throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `holds ${JSON.stringify(path)} with ${file.size} bytes, but ${ARCHIVE_MANIFEST_NAME} lists ${record.size}; the archive is damaged or was changed after packing: ${REPACK_ADVICE}`, { entry: path });
    }
    if (record.sha256 !== file.sha256) {
      throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `holds ${JSON.stringify(path)} with SHA-256 ${file.sha256}, but ${ARCHIVE_MANIFEST_NAME} lists ${record.sha256}; the archive is damaged or was changed after packing: ${REPACK_ADVICE}`, { entry: path });
    }
  }
  for (const path of listed.keys()) {
    if (!files.has(path)) {
      throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `${ARCHIVE_MANIFEST_NAME} lists ${JSON.stringify(path)}, which the archive does not hold; ${REPACK_ADVICE}`, { entry: path });
    }
  }
}
