import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SluiceError } from '../../sdk/errors/index.js';
import { errorMessage, nodeErrorCode } from '../../sdk/files/error-facts.js';
import { completeManifest, loadManifest, modelNamePattern, type ManifestDefaults } from './manifest-loader.js';
import { MANIFEST_FILE_NAME, type ModelManifest } from './model-manifest.js';

/** The model file a directory without a manifest is served from. */
export const MODEL_FILE_NAME = 'model.onnx';

/** The version of a model served from a directory without a manifest. */
export const MADE_MANIFEST_VERSION = '1';

/** How many of a directory's names a "nothing to serve" message lists. */
const LISTED_NAMES = 10;

type Kind = 'file' | 'other' | 'missing' | 'unreadable';

async function kindOf(path: string): Promise<Kind> {
  try {
    return (await stat(path)).isFile() ? 'file' : 'other';
  } catch (error) {
    const code = nodeErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return 'missing';
    if (code === 'EACCES' || code === 'EPERM') return 'unreadable';
    throw error;
  }
}

function checkName(dir: string, name: string): void {
  if (modelNamePattern().test(name)) return;
  throw new SluiceError(
    'SLUICE_MANIFEST_INVALID',
    `${dir}: cannot serve it as ${JSON.stringify(name)}: a model name starts with a letter or digit and holds only letters, digits, '_', '.' and '-' (at most 128 characters); choose another name`,
    { source: dir },
  );
}

/** The refusal of a directory that holds neither a manifest nor a model file, listing what it holds. */
async function nothingToServe(dir: string): Promise<SluiceError> {
  let held: string;
  try {
    const names = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
    const more = names.length > LISTED_NAMES ? ', …' : '';
    held = names.length === 0 ? 'it is empty' : `it holds ${names.slice(0, LISTED_NAMES).join(', ')}${more}`;
  } catch (error) {
    const code = nodeErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return new SluiceError('SLUICE_MANIFEST_NOT_FOUND', `${dir}: no such model directory; give a directory that holds ${MODEL_FILE_NAME} or ${MANIFEST_FILE_NAME}`, {
        source: dir,
      });
    }
    held = `it cannot be listed: ${errorMessage(error)}`;
  }
  return new SluiceError(
    'SLUICE_MANIFEST_NOT_FOUND',
    `${dir}: holds neither ${MANIFEST_FILE_NAME} nor ${MODEL_FILE_NAME} (${held}); put the ONNX model there as ${MODEL_FILE_NAME}, or describe it in a ${MANIFEST_FILE_NAME}`,
    { source: dir },
  );
}

/**
 * The manifest of the model directory `dir`, served under the model name `name`: the rule for directories
 * laid out by something other than Sluice (KServe's storage initializer puts a model's files in
 * `/mnt/models`; other model sources share it).
 *
 * - A directory with a `model.yaml`: that manifest, read and checked as always, its `name` replaced by `name`.
 * - A directory that holds `model.onnx` and no `model.yaml`: a manifest made for it, named `name`, version
 *   {@link MADE_MANIFEST_VERSION}, with the `passthrough` handler and every other setting at its default
 *   (`defaults` as for a `model.yaml`). It lists no inputs or outputs, so the runtime reads them from the
 *   model file when the model loads, as for a `model.yaml` that lists none. It is checked as a `model.yaml`
 *   is, and its `manifestPath` is the model file, which its messages name.
 *
 * Throws `SLUICE_MANIFEST_INVALID` for a name no model may have or a bad `model.yaml`,
 * `SLUICE_MANIFEST_NOT_FOUND` (listing what the directory holds) when it holds neither file, and
 * `SLUICE_MODEL_LOAD_FAILED` when a file cannot be read.
 */
export async function loadModelDirectory(dir: string, name: string, defaults?: ManifestDefaults): Promise<ModelManifest> {
  const baseDir = resolve(dir);
  checkName(baseDir, name);
  const manifestKind = await kindOf(join(baseDir, MANIFEST_FILE_NAME));
  if (manifestKind === 'file' || manifestKind === 'unreadable') {
    const manifest = await loadManifest(baseDir, defaults);
    return manifest.name === name ? manifest : Object.freeze({ ...manifest, name });
  }
  const modelPath = join(baseDir, MODEL_FILE_NAME);
  const modelKind = await kindOf(modelPath);
  if (modelKind === 'missing') throw await nothingToServe(baseDir);
  if (modelKind === 'unreadable') {
    throw new SluiceError(
      'SLUICE_MODEL_LOAD_FAILED',
      `${modelPath}: cannot be read; make the model directory and its files readable by the user Sluice runs as`,
      { source: modelPath },
    );
  }
  const document = { name, version: MADE_MANIFEST_VERSION, model: MODEL_FILE_NAME };
  return completeManifest(document, { baseDir, manifestPath: modelPath, source: modelPath }, defaults);
}
