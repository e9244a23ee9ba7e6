import { rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { dump } from 'js-yaml';
import type { TensorSpec } from '../sdk/tensor/tensor.js';
import {
  completeManifest,
  loadManifest,
  loadModelDirectory,
  MADE_MANIFEST_VERSION,
  MANIFEST_FILE_NAME,
  MODEL_FILE_NAME,
  modelNamePattern,
  type ModelManifest,
} from '../model-store/index.js';
import { OnnxRuntime } from '../runtime/onnx/index.js';
import { UsageError } from './cli-errors.js';
import { parseCommandArguments } from './command-flags.js';

const USAGE = 'usage: sluice init <model.onnx> [--name NAME]';

/** The manifest's header: what the file is and where its keys are described. */
const HEADER = [
  '# The manifest Sluice makes for a directory holding only this model file, written out for editing.',
  '# Every key is described in docs/models.md and schemas/model.schema.json.',
  '',
].join('\n');

/** A model name from the directory's name, made to fit the name rule (`my model` → `my-model`). */
function nameFromDirectory(dir: string): string {
  const fitted = basename(dir).replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 128);
  return fitted === '' ? 'model' : fitted;
}

/** The made manifest of `file`: `loadModelDirectory`'s for a `model.onnx`, the same document for another file name. */
async function madeManifest(file: string, name: string): Promise<ModelManifest> {
  const dir = dirname(file);
  if (basename(file) === MODEL_FILE_NAME) return loadModelDirectory(dir, name);
  return completeManifest({ name, version: MADE_MANIFEST_VERSION, model: basename(file) }, { baseDir: dir, manifestPath: file, source: file });
}

/** The model file's inputs and outputs, read by ONNX Runtime (no optimisation, one thread): also proves the file is a model. */
async function specsOf(file: string): Promise<{ inputs: readonly TensorSpec[]; outputs: readonly TensorSpec[] }> {
  const loaded = await new OnnxRuntime().loadHere(file, { executionProviders: ['cpu'], graphOptimizationLevel: 'disabled', intraOpNumThreads: 1 });
  try {
    return { inputs: loaded.inputs, outputs: loaded.outputs };
  } finally {
    await loaded.release();
  }
}

function specDocument(specs: readonly TensorSpec[]): Record<string, unknown>[] {
  return specs.map((spec) => ({ name: spec.name, datatype: spec.datatype, shape: [...spec.shape] }));
}

/**
 * `sluice init <model.onnx>`: writes, beside the model file, the `model.yaml` Sluice would make for a
 * directory holding only that file (named after the directory unless `--name`, version 1, the
 * `passthrough` handler, default batching and workers), with the inputs and outputs read from the model
 * file, for editing. An existing `model.yaml` is never overwritten. The written file is checked by
 * loading it as the server would, and removed again if that fails.
 */
export async function runInit(args: readonly string[], cwd: string): Promise<number> {
  const { values, positionals } = parseCommandArguments(args, { name: { type: 'string' } });
  const [given, ...extra] = positionals;
  if (given === undefined || extra.length > 0) throw new UsageError(USAGE);
  const file = resolve(cwd, given);
  const info = await stat(file).catch(() => undefined);
  if (info === undefined || !info.isFile()) throw new UsageError(`${file} is not a file; give the ONNX model file (${USAGE})`);
  const dir = dirname(file);
  const name = values.name ?? nameFromDirectory(dir);
  if (!modelNamePattern().test(name)) {
    throw new UsageError(`--name ${JSON.stringify(name)} is no model name: it starts with a letter or digit and holds only letters, digits, '_', '.' and '-'`);
  }
  const target = join(dir, MANIFEST_FILE_NAME);
  if (await stat(target).catch(() => undefined)) throw new UsageError(`${target} already exists; edit it, or remove it first to have a new one written`);
  const manifest = await madeManifest(file, name);
  const { inputs, outputs } = await specsOf(file);
  const document = {
    name: manifest.name,
    version: manifest.version,
    runtime: manifest.runtime,
    model: manifest.model,
    handler: manifest.handler,
    inputs: specDocument(inputs),
    outputs: specDocument(outputs),
    batching: { maxBatchSize: manifest.batching.maxBatchSize, maxBatchDelayMs: manifest.batching.maxBatchDelayMs },
    workers: { min: manifest.workers.min, max: manifest.workers.max },
  };
  try {
    await writeFile(target, HEADER + dump(document, { flowLevel: 2, lineWidth: 120 }), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`${target} already exists; edit it, or remove it first to have a new one written`);
    throw error;
  }
  try {
    await loadManifest(dir);
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  process.stdout.write(`Wrote ${target} (${manifest.name} ${manifest.version}, ${inputs.length} inputs, ${outputs.length} outputs); edit it, then serve the directory\n`);
  return 0;
}
