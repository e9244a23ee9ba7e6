import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { SluiceError, isSluiceError } from '../../common/errors/index.js';
import { makeDirectories } from '../../common/make-directories.js';
import { createSchemaValidator, type SchemaValidator } from '../../common/schema/index.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { errorMessage, nodeErrorCode } from '../fs/error-facts.js';
import type { Snapshot } from './snapshot.js';

const ADVICE = 'fix or delete the file, or start Sluice with --no-snapshot';

let validator: SchemaValidator<Snapshot> | undefined;

function snapshotValidator(): SchemaValidator<Snapshot> {
  validator ??= createSchemaValidator<Snapshot>('snapshot.schema.json', 'SLUICE_SNAPSHOT_INVALID');
  return validator;
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
   * Replaces the snapshot; creates the file's directory when it is missing. A directory that cannot be
   * created (a filesystem such as /proc that makes none) is `SLUICE_SNAPSHOT_INVALID` naming the file.
   */
  async write(snapshot: Snapshot): Promise<void> {
    try {
      await makeDirectories(dirname(this.file));
    } catch (error) {
      throw new SluiceError(
        'SLUICE_SNAPSHOT_INVALID',
        `${this.file}: cannot create the snapshot's directory (${errorMessage(error)}); set \`snapshot.file\` to a path in a writable directory, or turn snapshots off with \`snapshot.enabled: false\``,
        { source: this.file },
        { cause: error },
      );
    }
    await writeFileAtomic(this.file, JSON.stringify(snapshot, null, 2) + '\n');
  }

  /**
   * The stored snapshot, or undefined when there is none yet. Throws `SLUICE_SNAPSHOT_INVALID`,
   * naming the file and what to do, when the file is not valid JSON or not a valid snapshot.
   */
  async read(): Promise<Snapshot | undefined> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (nodeErrorCode(error) === 'ENOENT') return undefined;
      if (nodeErrorCode(error) === 'EISDIR') throw this.invalid('is a directory, not a snapshot file', error);
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw this.invalid(`is not valid JSON (${errorMessage(error)})`, error);
    }
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
}
