import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { SluiceError, type ModelDescription } from '../../src/sdk/index.js';
import { TEXT_CLASSIFIER } from './text-classifier-options.js';

/** A file of a model's directory, located and stamped so a changed file is read again. */
export interface ModelFile {
  readonly path: string;
  /** Changes when the file does (modification time and size). */
  readonly stamp: string;
}

function unreadable(model: ModelDescription, key: string, file: string, reason: string): SluiceError {
  return new SluiceError(
    'SLUICE_HANDLER_FAILED',
    `${TEXT_CLASSIFIER}: ${key} file \`${file}\` of model \`${model.name}\` ${reason}; fix handlerOptions.${key} or put the file in the model's directory`,
    { handler: TEXT_CLASSIFIER, key },
  );
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Locates `file` (the `key` setting) in the model's directory. It must be a relative path to a regular
 * file that stays inside the directory, links included, as manifests' own files must; otherwise
 * `SLUICE_HANDLER_FAILED` names the key.
 */
export async function locateModelFile(model: ModelDescription, key: string, file: string): Promise<ModelFile> {
  const dir = model.directory;
  if (dir === undefined) throw unreadable(model, key, file, 'cannot be found, as the model was not loaded from a directory');
  if (isAbsolute(file) || !inside(dir, resolve(dir, file))) throw unreadable(model, key, file, 'is outside the model directory');
  const path = resolve(dir, file);
  try {
    const [real, realDir] = await Promise.all([realpath(path), realpath(dir)]);
    if (!inside(realDir, real)) throw unreadable(model, key, file, 'leads out of the model directory through a link');
    const info = await stat(real);
    if (!info.isFile()) throw unreadable(model, key, file, 'is not a regular file');
    return { path: real, stamp: `${info.mtimeMs}:${info.size}` };
  } catch (error) {
    if (error instanceof SluiceError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw unreadable(model, key, file, `cannot be read (${code})`);
  }
}
