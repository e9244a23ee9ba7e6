import { resolve, sep } from 'node:path';
import { SluiceError, isSluiceError } from '../sdk/errors/index.js';
import type { SluiceConfig } from '../config/index.js';

/** A store whose paths answers name relative to it, and how they name the store itself (its configuration key). */
interface NamedStore {
  readonly pattern: RegExp;
  readonly label: string;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The stores of `config`, the one inside the other (if either is) first. */
function namedStores(config: Pick<SluiceConfig, 'modelStore' | 'workflowStore'>): NamedStore[] {
  const stores = [
    { dir: resolve(config.modelStore), label: 'modelStore' },
    { dir: resolve(config.workflowStore), label: 'workflowStore' },
  ].sort((a, b) => b.dir.length - a.dir.length);
  // The store's path, then either a separator (a path inside it) or the end of the name.
  return stores.map(({ dir, label }) => ({ pattern: new RegExp(`${escaped(dir)}(?:${escaped(sep)}|(?![\\w.+-]))`, 'g'), label }));
}

function relativeText(text: string, stores: readonly NamedStore[]): string {
  let named = text;
  for (const { pattern, label } of stores) named = named.replace(pattern, (found) => (found.endsWith(sep) ? '' : label));
  return named;
}

/** `text` with the paths of {@link storeRelativeError}: relative to their store. */
export function storeRelativeText(text: string, config: Pick<SluiceConfig, 'modelStore' | 'workflowStore'>): string {
  return relativeText(text, namedStores(config));
}

/**
 * `error` with every path inside the model or workflow store named relative to its store (`iris/model.yaml`,
 * `.extracted/iris-1-0123456789ab/model.onnx`), and a store itself by its configuration key (`modelStore`), in its
 * message and in the problems it lists. Management answers carry these messages (ONNX Runtime's own reasons
 * among them, which name the full path), and their clients have no business learning where the server
 * keeps its stores. The details keep the full paths, and the original error is the new one's cause, for
 * the log. Anything but a `SluiceError`, or one that names no store path, is answered as it is.
 */
export function storeRelativeError(error: unknown, config: Pick<SluiceConfig, 'modelStore' | 'workflowStore'>): unknown {
  if (!isSluiceError(error)) return error;
  const stores = namedStores(config);
  const message = relativeText(error.message, stores);
  const listed = error.details['problems'];
  const problems = Array.isArray(listed) ? listed.map((problem: unknown) => (typeof problem === 'string' ? relativeText(problem, stores) : problem)) : undefined;
  const problemsChanged = problems !== undefined && problems.some((problem, index) => problem !== (listed as unknown[])[index]);
  if (message === error.message && !problemsChanged) return error;
  return new SluiceError(error.code, message, problemsChanged ? { ...error.details, problems } : error.details, { cause: error });
}
