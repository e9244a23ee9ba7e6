import { createSchemaValidator, type SchemaValidator } from '../../json-schema/index.js';
import { errorMessage } from '../../sdk/files/error-facts.js';
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
export function parseArchiveManifest(archive: string, bytes: Buffer): ArchiveManifest {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    const problem = `${ARCHIVE_MANIFEST_NAME} is not valid JSON (${errorMessage(error)})`;
    throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `${problem}; ${REPACK_ADVICE}`);
  }
  return archiveManifestValidator().validate(value, `${archive}: ${ARCHIVE_MANIFEST_NAME}`);
}

function listedFiles(archive: string, manifest: ArchiveManifest): Map<string, ArchiveFileRecord> {
  const listed = new Map<string, ArchiveFileRecord>();
  for (const record of manifest.files) {
    const path = JSON.stringify(record.path);
    const normalised = normalizeArchivePath(record.path);
    if (!normalised.ok || normalised.path !== record.path || record.path === ARCHIVE_MANIFEST_NAME) {
      const problem = `${ARCHIVE_MANIFEST_NAME} lists the path ${path}, which is not a plain relative path`;
      throw archiveError('SLUICE_ARCHIVE_UNSAFE_PATH', archive, `${problem}; ${REPACK_ADVICE}`);
    }
    if (listed.has(record.path)) {
      throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `${ARCHIVE_MANIFEST_NAME} lists ${path} twice; ${REPACK_ADVICE}`);
    }
    listed.set(record.path, record);
  }
  return listed;
}

/** What is wrong with one unpacked file compared with its record, if anything. */
function mismatch(path: string, file: UnpackedFile, record: ArchiveFileRecord | undefined): string | undefined {
  const changed = `the archive is damaged or was changed after packing: ${REPACK_ADVICE}`;
  if (record === undefined) {
    return `holds ${path}, which ${ARCHIVE_MANIFEST_NAME} does not list; the archive was changed after packing: ${REPACK_ADVICE}`;
  }
  if (record.size !== file.size) {
    return `holds ${path} with ${file.size} bytes, but ${ARCHIVE_MANIFEST_NAME} lists ${record.size}; ${changed}`;
  }
  if (record.sha256 !== file.sha256) {
    return `holds ${path} with SHA-256 ${file.sha256}, but ${ARCHIVE_MANIFEST_NAME} lists ${record.sha256}; ${changed}`;
  }
  return undefined;
}

/**
 * Checks that the unpacked files are exactly those `SLUICE-ARCHIVE.json` lists, with the listed
 * sizes and SHA-256 digests. Any difference means the archive was damaged or changed after
 * packing.
 */
export function verifyArchiveFiles(
  archive: string,
  manifest: ArchiveManifest,
  files: ReadonlyMap<string, UnpackedFile>,
): void {
  const listed = listedFiles(archive, manifest);
  for (const [path, file] of files) {
    const problem = mismatch(JSON.stringify(path), file, listed.get(path));
    if (problem !== undefined) throw archiveError('SLUICE_ARCHIVE_INVALID', archive, problem, { entry: path });
  }
  for (const path of listed.keys()) {
    if (!files.has(path)) {
      const problem = `${ARCHIVE_MANIFEST_NAME} lists ${JSON.stringify(path)}, which the archive does not hold`;
      throw archiveError('SLUICE_ARCHIVE_INVALID', archive, `${problem}; ${REPACK_ADVICE}`, { entry: path });
    }
  }
}
