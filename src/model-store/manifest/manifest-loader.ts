import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { load, YAMLException } from 'js-yaml';
import { SluiceError, isSluiceError } from '../../sdk/errors/index.js';
import { createSchemaValidator, schemaPattern, type SchemaValidator } from '../../json-schema/index.js';
import type { TensorSpec } from '../../sdk/tensor/index.js';
import { locateContainedFile, type ContainedFileProblem } from '../fs/contained-file.js';
import { PACKAGE_FILE_PREFIX, locatePackageFile } from '../fs/package-file.js';
import { errorMessage, nodeErrorCode } from '../../sdk/files/error-facts.js';
import { RELATIVE_PATH_PROBLEM_TEXT } from '../fs/path-containment.js';
import { ALL_VERSIONS, MANIFEST_FILE_NAME, type ModelManifest, type RawModelManifest } from './model-manifest.js';

/** A manifest larger than this is certainly not a hand-written `model.yaml`. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

let validator: SchemaValidator<RawModelManifest> | undefined;

function manifestValidator(): SchemaValidator<RawModelManifest> {
  validator ??= createSchemaValidator<RawModelManifest>('model.schema.json', 'SLUICE_MANIFEST_INVALID');
  return validator;
}

let namePattern: RegExp | undefined;

/**
 * The pattern every model name must match: `name` in `schemas/model.schema.json`, read from the schema so
 * that a name given at registration follows exactly the rule manifests do.
 */
export function modelNamePattern(): RegExp {
  namePattern ??= schemaPattern('model.schema.json', ['properties', 'name']);
  return namePattern;
}

function invalid(source: string, problems: readonly string[]): SluiceError {
  return new SluiceError('SLUICE_MANIFEST_INVALID', `${source}: ${problems.join('; ')}`, { source, problems });
}

function parseYaml(text: string, source: string, filename: string): unknown {
  try {
    // Aliases are refused: a manifest can arrive inside an uploaded archive, and nested aliases
    // expand exponentially when the document is walked.
    return load(text, { filename, maxAliases: 0 });
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    const where = error.mark ? ` (line ${error.mark.line + 1}, column ${error.mark.column + 1})` : '';
    throw invalid(source, [`is not valid YAML: ${error.reason}${where}; fix the syntax (anchors and aliases are not supported)`]);
  }
}

const PACKAGE_FILE_MISSING =
  'names no file of an installed npm package; write npm:<package>/<path inside the package> and install the package';

const FILE_PROBLEM_TEXT: Readonly<Record<ContainedFileProblem, string>> = {
  ...RELATIVE_PATH_PROBLEM_TEXT,
  missing: 'does not exist; put the file in the model directory or fix the path',
  'not-a-file': 'is not a regular file; point it at a file',
  escapes: 'leads outside the model directory through a symbolic link; copy the file into the model directory',
};

async function locateManifestFile(
  baseDir: string,
  key: 'model' | 'labels',
  value: string,
  problems: string[],
): Promise<string | undefined> {
  const fromPackage = value.startsWith(PACKAGE_FILE_PREFIX);
  const found = fromPackage ? await locatePackageFile(value) : await locateContainedFile(baseDir, value);
  if (found.ok) return found.path;
  const problem = fromPackage && found.problem === 'missing' ? PACKAGE_FILE_MISSING : FILE_PROBLEM_TEXT[found.problem];
  problems.push(`\`${key}\` (${JSON.stringify(value)}) ${problem}`);
  return undefined;
}

function checkUniqueNames(key: 'inputs' | 'outputs', specs: readonly TensorSpec[] | undefined, problems: string[]): void {
  const seen = new Set<string>();
  for (const spec of specs ?? []) {
    if (seen.has(spec.name)) problems.push(`\`${key}\` names tensor ${JSON.stringify(spec.name)} twice; give each tensor once`);
    seen.add(spec.name);
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

async function readManifestText(baseDir: string, manifestPath: string, source: string): Promise<string> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(baseDir)).isDirectory();
  } catch (error) {
    const code = nodeErrorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    isDirectory = false;
  }
  if (!isDirectory) {
    throw new SluiceError(
      'SLUICE_MANIFEST_NOT_FOUND',
      `${baseDir}: no such model directory; give the directory that holds ${MANIFEST_FILE_NAME}`,
      { source: baseDir },
    );
  }
  const located = await locateContainedFile(baseDir, MANIFEST_FILE_NAME);
  if (!located.ok && located.problem === 'missing') {
    throw new SluiceError(
      'SLUICE_MANIFEST_NOT_FOUND',
      `${source}: not found; every model directory needs a ${MANIFEST_FILE_NAME} with at least name, version and model`,
      { source },
    );
  }
  if (!located.ok) throw invalid(source, [FILE_PROBLEM_TEXT[located.problem]]);
  if ((await stat(manifestPath)).size > MAX_MANIFEST_BYTES) {
    throw invalid(source, [`is larger than ${MAX_MANIFEST_BYTES} bytes; a manifest only describes the model, keep data in separate files`]);
  }
  return utf8Text(await readFile(manifestPath), source);
}

/**
 * `bytes` as UTF-8 text. Bytes that are not UTF-8 are refused, naming the first line that holds them,
 * rather than read as replacement characters that would change names and labels without a word.
 */
function utf8Text(bytes: Uint8Array, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const line = lenient.slice(0, lenient.indexOf('\uFFFD')).split('\n').length;
    throw invalid(source, [`is not valid UTF-8 text (line ${line}); save it as UTF-8`]);
  }
}

/**
 * A file of the model that this process may not read (permissions, a link it may not follow) as
 * `SLUICE_MODEL_LOAD_FAILED` naming the manifest, instead of a bare system error.
 */
function unreadable(source: string, error: unknown): SluiceError {
  return new SluiceError(
    'SLUICE_MODEL_LOAD_FAILED',
    `${source}: cannot be read (${errorMessage(error)}); make the model directory and its files readable by the user Sluice runs as`,
    { source },
    { cause: error },
  );
}

/**
 * Refuses, before schema validation and with a message saying why, the two versions the schema alone would
 * explain badly: a YAML number (1.0 read as 1), and "all".
 */
function checkVersionValue(document: unknown, source: string): void {
  const version = typeof document === 'object' && document !== null ? (document as { version?: unknown }).version : undefined;
  if (typeof version === 'number') {
    throw invalid(source, ['`version` must be a string; quote it in YAML (for example version: "1.0") so that 1.0 is not read as the number 1']);
  }
  if (version === ALL_VERSIONS) {
    throw invalid(source, [
      `\`version\` must not be "${ALL_VERSIONS}": the management APIs read "${ALL_VERSIONS}" as every version of a model (GET /models/<name>/${ALL_VERSIONS}); choose another version`,
    ]);
  }
}

/** Server-wide values a manifest falls back to. */
export interface ManifestDefaults {
  /** `workers.min` when the manifest gives none (the config's `defaultWorkers`). */
  readonly workers: number;
}

const BUILT_IN_DEFAULTS: ManifestDefaults = { workers: 1 };

/**
 * Reads, validates and completes `<dir>/model.yaml`, naming the manifest `source` in every error.
 * The archive extractor uses this to name the archive instead of its temporary directory. A directory or
 * file this process may not read is `SLUICE_MODEL_LOAD_FAILED`.
 */
export async function loadManifestAs(dir: string, source: string, defaults: ManifestDefaults = BUILT_IN_DEFAULTS): Promise<ModelManifest> {
  try {
    return await readManifestAs(dir, source, defaults);
  } catch (error) {
    if (isSluiceError(error) || nodeErrorCode(error) === undefined) throw error;
    throw unreadable(source, error);
  }
}

async function readManifestAs(dir: string, source: string, defaults: ManifestDefaults): Promise<ModelManifest> {
  const baseDir = resolve(dir);
  const manifestPath = join(baseDir, MANIFEST_FILE_NAME);
  const text = await readManifestText(baseDir, manifestPath, source);
  return completeManifest(parseYaml(text, source, manifestPath), { baseDir, manifestPath, source }, defaults);
}

/** Where a manifest document comes from, as {@link completeManifest} names it. */
export interface ManifestOrigin {
  /** Absolute path of the model directory: `model` and `labels` are looked up in it. */
  readonly baseDir: string;
  /** What {@link ModelManifest.manifestPath} will say: the `model.yaml`, or the file a manifest was made for. */
  readonly manifestPath: string;
  /** How error messages name the manifest. */
  readonly source: string;
}

/**
 * Checks a manifest document as a `model.yaml` is checked (schema, then what the schema cannot say) and
 * completes it: every default applied, `model` and `labels` located inside `origin.baseDir`. Whoever
 * makes a manifest for a model directory without one passes it here, so it is held to the same rules.
 * Throws `SLUICE_MANIFEST_INVALID` naming `origin.source` and every problem.
 */
export async function completeManifest(document: unknown, origin: ManifestOrigin, defaults: ManifestDefaults = BUILT_IN_DEFAULTS): Promise<ModelManifest> {
  const { baseDir, manifestPath, source } = origin;
  checkVersionValue(document, source);
  const raw = manifestValidator().validate(document, source);

  const problems: string[] = [];
  const maxBatchSize = raw.batching?.maxBatchSize ?? 1;
  const preferredBatchSizes = raw.batching?.preferredBatchSizes ?? [];
  for (const size of preferredBatchSizes) {
    if (size > maxBatchSize) {
      problems.push(`\`batching.preferredBatchSizes\` holds ${size}, more than \`batching.maxBatchSize\` (${maxBatchSize}); lower it or raise maxBatchSize`);
    }
  }
  const minWorkers = raw.workers?.min ?? Math.min(defaults.workers, raw.workers?.max ?? Infinity);
  const maxWorkers = raw.workers?.max ?? Math.max(minWorkers, 1);
  if (maxWorkers < minWorkers) {
    problems.push(`\`workers.max\` (${maxWorkers}) is less than \`workers.min\` (${minWorkers}); make max at least min`);
  }
  const priorityLevels = raw.batching?.priorityLevels ?? 1;
  const defaultPriority = raw.batching?.defaultPriority ?? Math.ceil(priorityLevels / 2);
  if (defaultPriority > priorityLevels) {
    problems.push(`\`batching.defaultPriority\` (${defaultPriority}) is above \`batching.priorityLevels\` (${priorityLevels}); use a level from 1 to ${priorityLevels}`);
  }
  const autoscale = raw.workers?.autoscale ?? {};
  checkUniqueNames('inputs', raw.inputs, problems);
  checkUniqueNames('outputs', raw.outputs, problems);
  const modelPath = await locateManifestFile(baseDir, 'model', raw.model, problems);
  const labelsPath = raw.labels === undefined ? undefined : await locateManifestFile(baseDir, 'labels', raw.labels, problems);
  if (problems.length > 0 || modelPath === undefined) throw invalid(source, problems);

  const manifest: ModelManifest = {
    name: raw.name,
    version: raw.version,
    ...(raw.description !== undefined && { description: raw.description }),
    runtime: raw.runtime ?? 'onnx',
    model: raw.model,
    modelPath,
    handler: raw.handler ?? 'passthrough',
    handlerOptions: raw.handlerOptions ?? {},
    ...(raw.envelope !== undefined && { envelope: raw.envelope }),
    ...(raw.labels !== undefined && { labels: raw.labels, labelsPath }),
    ...(raw.inputs !== undefined && { inputs: raw.inputs }),
    ...(raw.outputs !== undefined && { outputs: raw.outputs }),
    batching: {
      maxBatchSize,
      maxBatchDelayMs: raw.batching?.maxBatchDelayMs ?? 0,
      preferredBatchSizes,
      priorityLevels,
      defaultPriority,
      queuePolicy: raw.batching?.queuePolicy ?? 'reject',
      preserveOrdering: raw.batching?.preserveOrdering ?? false,
    },
    declaredBatching: {
      ...(raw.batching?.maxBatchSize !== undefined && { maxBatchSize: raw.batching.maxBatchSize }),
      ...(raw.batching?.maxBatchDelayMs !== undefined && { maxBatchDelayMs: raw.batching.maxBatchDelayMs }),
      ...(raw.batching?.preferredBatchSizes !== undefined && { preferredBatchSizes: raw.batching.preferredBatchSizes }),
      ...(raw.batching?.defaultPriority !== undefined && { defaultPriority: raw.batching.defaultPriority }),
    },
    workers: {
      min: minWorkers,
      max: maxWorkers,
      autoscale: {
        enabled: autoscale.enabled ?? maxWorkers > minWorkers,
        intervalMs: autoscale.intervalMs ?? 1000,
        scaleUpQueueMs: autoscale.scaleUpQueueMs ?? 50,
        scaleUpAfter: autoscale.scaleUpAfter ?? 3,
        scaleDownIdleMs: autoscale.scaleDownIdleMs ?? 30000,
        cooldownMs: autoscale.cooldownMs ?? 5000,
      },
    },
    ...(autoscale.enabled !== undefined && { declaredAutoscaleEnabled: autoscale.enabled }),
    executor: raw.executor ?? 'cpu',
    executorOptions: raw.executorOptions ?? {},
    device: raw.device ?? 'cpu',
    ...(raw.responseTimeoutMs !== undefined && { responseTimeoutMs: raw.responseTimeoutMs }),
    ...(raw.jobQueueSize !== undefined && { jobQueueSize: raw.jobQueueSize }),
    runtimeOptions: raw.runtimeOptions ?? {},
    baseDir,
    manifestPath,
  };
  return deepFreeze(manifest);
}

/**
 * Loads the model directory `dir`: reads `<dir>/model.yaml`, validates it against
 * `schemas/model.schema.json`, applies defaults and checks that `model` and `labels` name regular
 * files inside `dir`. Throws `SLUICE_MANIFEST_NOT_FOUND` when there is no manifest and
 * `SLUICE_MANIFEST_INVALID` (naming the file and every problem) otherwise.
 */
export async function loadManifest(dir: string, defaults?: ManifestDefaults): Promise<ModelManifest> {
  return loadManifestAs(dir, join(resolve(dir), MANIFEST_FILE_NAME), defaults);
}
