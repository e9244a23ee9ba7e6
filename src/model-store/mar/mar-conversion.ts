import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { SluiceError } from '../../sdk/errors/index.js';
import { archiveError } from '../archive/archive-errors.js';
import { relativePathProblem, RELATIVE_PATH_PROBLEM_TEXT } from '../fs/path-containment.js';
import { modelNamePattern } from '../manifest/manifest-loader.js';
import { MANIFEST_FILE_NAME } from '../manifest/model-manifest.js';

/** Where a `.mar` keeps its manifest. */
export const MAR_MANIFEST_PATH = 'MAR-INF/MANIFEST.json';

/** TorchServe's base handlers that have a Sluice handler doing the same work. */
export const MAR_HANDLER_MAP: Readonly<Record<string, string>> = {
  image_classifier: 'image-classifier',
  text_classifier: 'text-classifier',
};

/** Where the export to ONNX is explained, for archives holding a PyTorch checkpoint. */
export const EXPORT_GUIDE = 'docs/migrating-from-torchserve.md#exporting-a-pytorch-model-to-onnx';

/** Extensions of the checkpoints torch-model-archiver packs (eager weights, TorchScript, Hugging Face files). */
const CHECKPOINTS = ['.pt', '.pth', '.bin', '.ckpt', '.safetensors', '.tar', '.pkl', '.torchscript', '.mar'];

/** The fields of `MAR-INF/MANIFEST.json` a conversion reads. */
export interface MarManifest {
  readonly modelName: string;
  readonly modelVersion: string;
  readonly serializedFile: string | undefined;
  readonly handler: string | undefined;
  readonly modelFile: string | undefined;
  readonly description: string | undefined;
}

/** What a conversion may be told beyond the archive. */
export interface MarConversionOptions {
  /** The Sluice handler to use whatever the archive's handler is (TorchServe's `handler` parameter, `--handler`). */
  readonly handler?: string;
}

/** What a conversion wrote. */
export interface MarConversion {
  readonly name: string;
  readonly version: string;
  readonly handler: string;
  /** The number of labels written from `index_to_name.json`, or undefined without one. */
  readonly labels: number | undefined;
}

const quote = (text: string): string => JSON.stringify(text);

function stringField(record: Readonly<Record<string, unknown>>, key: string, mar: string): string | undefined {
  const value = record[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `${MAR_MANIFEST_PATH}: \`model.${key}\` must be a string`);
  return value;
}

/** Reads and checks `MAR-INF/MANIFEST.json` of an unzipped `.mar`. */
export async function readMarManifest(dir: string, mar: string, files: ReadonlySet<string>): Promise<MarManifest> {
  if (!files.has(MAR_MANIFEST_PATH)) {
    throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `has no ${MAR_MANIFEST_PATH}, so it is not a TorchServe model archive; make it with torch-model-archiver`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(join(dir, MAR_MANIFEST_PATH), 'utf8'));
  } catch (error) {
    throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `${MAR_MANIFEST_PATH} is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const model = (parsed as { model?: unknown } | null)?.model;
  if (typeof model !== 'object' || model === null || Array.isArray(model)) {
    throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `${MAR_MANIFEST_PATH} has no \`model\` object; make the archive again with torch-model-archiver`);
  }
  const record = model as Readonly<Record<string, unknown>>;
  const modelName = stringField(record, 'modelName', mar);
  if (modelName === undefined) throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `${MAR_MANIFEST_PATH} gives no \`model.modelName\``);
  return {
    modelName,
    modelVersion: stringField(record, 'modelVersion', mar) ?? '1.0',
    serializedFile: stringField(record, 'serializedFile', mar),
    handler: stringField(record, 'handler', mar),
    modelFile: stringField(record, 'modelFile', mar),
    description: stringField(record, 'description', mar),
  };
}

function unsupported(mar: string, problem: string, details: Record<string, unknown> = {}): SluiceError {
  return new SluiceError('SLUICE_MAR_UNSUPPORTED', `${mar}: ${problem}`, { archive: mar, ...details });
}

/** The ONNX file the archive serves, checked: present, inside the archive, and ONNX rather than a PyTorch checkpoint. */
function onnxFile(manifest: MarManifest, mar: string, files: ReadonlySet<string>): string {
  const file = manifest.serializedFile;
  if (file === undefined) {
    throw unsupported(mar, `${MAR_MANIFEST_PATH} names no serializedFile; Sluice serves the archive's ONNX file, so pack one with --serialized-file model.onnx (see ${EXPORT_GUIDE})`);
  }
  const problem = relativePathProblem(file);
  if (problem !== undefined) throw archiveError('SLUICE_ARCHIVE_UNSAFE_PATH', mar, `serializedFile ${quote(file)} ${RELATIVE_PATH_PROBLEM_TEXT[problem]}`);
  const lower = file.toLowerCase();
  if (!lower.endsWith('.onnx')) {
    const checkpoint = CHECKPOINTS.some((ext) => lower.endsWith(ext)) || manifest.modelFile !== undefined;
    const what = checkpoint ? `a PyTorch checkpoint (${quote(file)})` : `${quote(file)}, which is not an ONNX file`;
    throw unsupported(
      mar,
      `its serialized file is ${what}; Sluice runs ONNX models only: export the model to ONNX (torch.onnx.export) and pack model.onnx instead, as ${EXPORT_GUIDE} shows`,
      { serializedFile: file },
    );
  }
  if (!files.has(file)) throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `its manifest names serializedFile ${quote(file)}, which the archive does not hold`);
  return file;
}

/** The Sluice handler for the archive: the one asked for, or the one TorchServe's base handler maps to. */
function handlerFor(manifest: MarManifest, mar: string, options: MarConversionOptions): string {
  if (options.handler !== undefined) return options.handler;
  const given = manifest.handler;
  const pairs = Object.entries(MAR_HANDLER_MAP).map(([ts, sluice]) => `${ts} → ${sluice}`).join(', ');
  if (given === undefined) {
    throw unsupported(mar, `its manifest names no handler; give the Sluice handler to use (handler=<name> when registering, --handler with import-mar)`);
  }
  const base = (given.split(':')[0] ?? given).split(/[\\/]/).pop()?.replace(/\.py$/, '') ?? given;
  const mapped = MAR_HANDLER_MAP[base];
  if (mapped === undefined) {
    throw unsupported(
      mar,
      `its handler ${quote(given)} is not one of TorchServe's base handlers Sluice maps (${pairs}); Python handler code cannot run in Sluice, so give the Sluice handler to use (handler=<name> when registering, --handler with import-mar)`,
      { handler: given },
    );
  }
  return mapped;
}

/**
 * Class names from `index_to_name.json` (`{"0": "tench"}` or ImageNet's `{"0": ["n01440764", "tench"]}`),
 * in index order; the indices must run from 0 without a gap.
 */
function labelsOf(raw: unknown, mar: string): string[] {
  const bad = (problem: string): SluiceError => archiveError('SLUICE_ARCHIVE_INVALID', mar, `index_to_name.json ${problem}`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('must map class indices to names');
  const entries = Object.entries(raw as Record<string, unknown>);
  const labels: string[] = [];
  for (const [key, value] of entries) {
    if (!/^(0|[1-9]\d*)$/.test(key) || Number(key) >= entries.length) throw bad(`has key ${quote(key)}; its keys must be the indices 0 to ${entries.length - 1}`);
    const name = Array.isArray(value) ? (value as unknown[]).at(-1) : value;
    if (typeof name !== 'string' || name.includes('\n')) throw bad(`gives index ${key} no one-line name`);
    labels[Number(key)] = name;
  }
  return labels;
}

/**
 * Turns an unzipped `.mar` in `dir` into a Sluice model directory in place: writes `model.yaml` (name and
 * version from the archive's manifest, its ONNX `serializedFile` as the model, the Sluice handler its
 * TorchServe base handler maps to, or `options.handler`) and `labels.txt` from `index_to_name.json`. A
 * `text_classifier` archive must hold a Hugging Face `tokenizer.json`. Throws `SLUICE_MAR_UNSUPPORTED`
 * for what Sluice cannot serve (a PyTorch checkpoint, a custom Python handler) and
 * `SLUICE_ARCHIVE_INVALID` for a damaged archive; `mar` names the archive in messages.
 */
export async function convertMar(dir: string, mar: string, files: ReadonlySet<string>, options: MarConversionOptions = {}): Promise<MarConversion> {
  const manifest = await readMarManifest(dir, mar, files);
  if (!modelNamePattern().test(manifest.modelName)) {
    throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `model name ${quote(manifest.modelName)} is not a Sluice model name (letters, digits, '_', '.', '-', starting with a letter or digit)`);
  }
  if (!modelNamePattern().test(manifest.modelVersion) || manifest.modelVersion === 'all') {
    throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `model version ${quote(manifest.modelVersion)} is not a Sluice model version`);
  }
  const model = onnxFile(manifest, mar, files);
  const handler = handlerFor(manifest, mar, options);
  if (files.has(MANIFEST_FILE_NAME)) throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `already holds a ${MANIFEST_FILE_NAME}, which the conversion writes`);
  let labels: string[] | undefined;
  if (files.has('index_to_name.json')) {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(join(dir, 'index_to_name.json'), 'utf8'));
    } catch (error) {
      throw archiveError('SLUICE_ARCHIVE_INVALID', mar, `index_to_name.json is not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    labels = labelsOf(raw, mar);
    if (files.has('labels.txt')) throw archiveError('SLUICE_ARCHIVE_INVALID', mar, 'holds both index_to_name.json and labels.txt; keep one');
    await writeFile(join(dir, 'labels.txt'), `${labels.join('\n')}\n`, { flag: 'wx' });
  }
  const handlerOptions: Record<string, unknown> = {};
  if (handler === 'text-classifier') {
    if (!files.has('tokenizer.json')) {
      throw unsupported(mar, "its handler text_classifier needs the model's Hugging Face tokenizer.json at the archive's root (pack it with --extra-files tokenizer.json)");
    }
    handlerOptions['tokenizer'] = 'tokenizer.json';
  }
  const manifestYaml = {
    name: manifest.modelName,
    version: manifest.modelVersion,
    description: manifest.description ?? `Converted from the TorchServe model archive ${mar.split(/[\\/]/).pop() ?? mar}`,
    model,
    handler,
    ...(Object.keys(handlerOptions).length > 0 ? { handlerOptions } : {}),
    ...(labels !== undefined ? { labels: 'labels.txt' } : {}),
  };
  await writeFile(join(dir, MANIFEST_FILE_NAME), dump(manifestYaml), { flag: 'wx' });
  return { name: manifest.modelName, version: manifest.modelVersion, handler, labels: labels?.length };
}
