import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { SluiceError, isSluiceError } from '../../sdk/errors/index.js';
import { makePrivateDirectory } from '../../sdk/files/private-directory.js';
import { createSchemaValidator, type SchemaValidator } from '../../json-schema/index.js';
import { writeFileAtomic } from '../../sdk/files/atomic-write.js';
import { errorMessage, nodeErrorCode } from '../../sdk/files/error-facts.js';
import { SNAPSHOT_FORMAT, type Snapshot } from './snapshot.js';

const ADVICE = 'fix or delete the file, or start Sluice with --no-snapshot';

let validator: SchemaValidator<Snapshot> | undefined;

function snapshotValidator(): SchemaValidator<Snapshot> {
  validator ??= createSchemaValidator<Snapshot>('snapshot.schema.json', 'SLUICE_SNAPSHOT_INVALID');
  return validator;
}

/**
 * A snapshot of another layout, said before the schema speaks: the schema's own message ("must be equal to
 * constant") would not tell that the file comes from another Sluice.
 */
function formatProblem(value: unknown): string | undefined {
  const format = typeof value === 'object' && value !== null ? (value as { format?: unknown }).format : undefined;
  if (typeof format !== 'number' || format === SNAPSHOT_FORMAT) return undefined;
  const origin = format > SNAPSHOT_FORMAT ? ' (a newer Sluice wrote it)' : '';
  return `has format ${format}${origin}, and this Sluice reads only format ${SNAPSHOT_FORMAT}`;
}

/** Problems the schema cannot express: worker bounds, duplicate versions, default versions. */
function semanticProblems(snapshot: Snapshot): string[] {
  const problems: string[] = [];
  const versions = new Set<string>();
  const defaults = new Map<string, number>();
  for (const [index, model] of snapshot.models.entries()) {
    if (model.maxWorkers < model.minWorkers) {
      problems.push(`\`models[${index}].maxWorkers\` (${model.maxWorkers}) is less than \`models[${index}].minWorkers\` (${model.minWorkers})`);
    }
    const key = `${model.name} ${model.version}`;
    if (versions.has(key)) problems.push(`\`models[${index}]\` repeats ${model.name} version ${model.version}`);
    versions.add(key);
    defaults.set(model.name, (defaults.get(model.name) ?? 0) + (model.isDefault ? 1 : 0));
  }
  for (const [name, count] of defaults) {
    if (count !== 1) problems.push(`model ${name} has ${count} default versions instead of exactly one`);
  }
  return problems;
}

/**
 * Keeps the snapshot of registered models in one JSON file. Writes are atomic (temporary file,
 * fsync, rename, fsync of the directory), so a crash leaves the previous or the new snapshot,
 * never a torn one; stray temporary files from a crash are never read.
 */
export class SnapshotStore {
  /** Absolute path of the snapshot file. */
  readonly file: string;

  constructor(file: string) {
    this.file = resolve(file);
  }

  private invalid(problem: string, cause?: unknown): SluiceError {
    return new SluiceError('SLUICE_SNAPSHOT_INVALID', `${this.file}: ${problem}; ${ADVICE}`, { source: this.file }, { cause });
  }

  /**
   * Replaces the snapshot; creates the file's directory (mode 0700) when it is missing. A directory that cannot be
   * created (a filesystem such as /proc that makes none), or a file that cannot be written (a full disk, a
   * directory in its place), is `SLUICE_SNAPSHOT_INVALID` naming the file; the previous snapshot stays.
   */
  async write(snapshot: Snapshot): Promise<void> {
    try {
      // 0700: the server's own state, and by default the folder token-auth keeps its keys in (.sluice/).
      await makePrivateDirectory(dirname(this.file));
    } catch (error) {
      throw new SluiceError(
        'SLUICE_SNAPSHOT_INVALID',
        `${this.file}: cannot create the snapshot's directory (${errorMessage(error)}); set \`snapshot.file\` to a path in a writable directory, or turn snapshots off with \`snapshot.enabled: false\``,
        { source: this.file },
        { cause: error },
      );
    }
    try {
      await writeFileAtomic(this.file, JSON.stringify(snapshot, null, 2) + '\n');
    } catch (error) {
      throw new SluiceError(
        'SLUICE_SNAPSHOT_INVALID',
        `${this.file}: cannot write the snapshot (${errorMessage(error)}); make room on its filesystem, remove what stands at that path, set \`snapshot.file\` to a path in a writable directory, or turn snapshots off with \`snapshot.enabled: false\``,
        { source: this.file },
        { cause: error },
      );
    }
  }

  /**
   * The stored snapshot, or undefined when there is none yet. Throws `SLUICE_SNAPSHOT_INVALID`,
   * naming the file and what to do, when the file cannot be read, is not a regular file, is not valid
   * JSON or is not a valid snapshot of this Sluice's format.
   */
  async read(): Promise<Snapshot | undefined> {
    const text = await this.readText();
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw this.invalid(`is not valid JSON (${errorMessage(error)})`, error);
    }
    const format = formatProblem(value);
    if (format !== undefined) throw this.invalid(format);
    let snapshot: Snapshot;
    try {
      snapshot = snapshotValidator().validate(value, this.file);
    } catch (error) {
      if (!isSluiceError(error, 'SLUICE_SNAPSHOT_INVALID')) throw error;
      throw new SluiceError('SLUICE_SNAPSHOT_INVALID', `${error.message}; ${ADVICE}`, error.details, { cause: error });
    }
    const problems = semanticProblems(snapshot);
    if (problems.length > 0) throw this.invalid(problems.join('; '));
    return snapshot;
  }

  /** The file's text, or undefined when there is no file. */
  private async readText(): Promise<string | undefined> {
    let handle: FileHandle;
    try {
      // Non-blocking: a FIFO in the snapshot's place would otherwise hold start-up until something writes to it.
      handle = await open(this.file, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      if (nodeErrorCode(error) === 'ENOENT') return undefined;
      throw this.invalid(`cannot be read (${errorMessage(error)})`, error);
    }
    try {
      const info = await handle.stat();
      if (info.isDirectory()) throw this.invalid('is a directory, not a snapshot file');
      if (!info.isFile()) throw this.invalid('is not a regular file (a FIFO, socket or device stands in its place)');
      return await handle.readFile('utf8');
    } catch (error) {
      if (isSluiceError(error)) throw error;
      throw this.invalid(`cannot be read (${errorMessage(error)})`, error);
    } finally {
      await handle.close();
    }
  }
}
