import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { SluiceError } from '../../common/errors/index.js';
import type { SluiceConfig } from '../../config/index.js';
import { downloadArchive } from '../../model-store/index.js';

/** A workflow file's text, where it was read from and the name problems are reported under. */
export interface WorkflowSource {
  readonly text: string;
  /** The file in the workflow store, or the URL it was downloaded from. */
  readonly file: string;
  /**
   * The name problems are reported under: the file's path relative to the workflow store (`ocr.yaml`,
   * `ocr/workflow.yaml`), or the URL; answers never show where the store lies on the server.
   */
  readonly name: string;
}

/** Largest workflow file read, in bytes (the parser has its own limit too). */
const MAX_WORKFLOW_BYTES = 1024 * 1024;
const STORE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,254}$/;
const EXTENSIONS = ['', '.yaml', '.yml'];

function notAllowed(url: string, reason: string): SluiceError {
  return new SluiceError(
    'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
    `workflow url ${JSON.stringify(url)} ${reason}; give a workflow-store name (a file or directory in the workflow store) or an http(s) URL that allowedUrls allows`,
    { url },
  );
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Finds the workflow a registration's `url` names: a file in the workflow store (`ocr`, `ocr.yaml`), a
 * directory there holding `workflow.yaml`, or an http(s) URL that `allowedUrls` allows (downloaded into
 * the store's `.downloads/` and read). Names never reach outside the store.
 */
export async function readWorkflowSource(url: string, config: SluiceConfig): Promise<WorkflowSource> {
  if (/^https?:\/\//i.test(url)) return readRemote(url, config);
  if (!STORE_NAME.test(url) || url.includes('..')) throw notAllowed(url, 'is not a plain name in the workflow store');
  const store = config.workflowStore;
  const candidates = [...EXTENSIONS.map((ext) => join(store, url + ext)), join(store, url, 'workflow.yaml')];
  for (const path of candidates) {
    if (await isFile(path)) {
      const name = relative(store, path);
      if ((await stat(path)).size > MAX_WORKFLOW_BYTES) throw new SluiceError('SLUICE_WORKFLOW_INVALID', `${name}: larger than ${MAX_WORKFLOW_BYTES} bytes`);
      return { text: await readFile(path, 'utf8'), file: path, name };
    }
  }
  throw new SluiceError('SLUICE_WORKFLOW_NOT_FOUND', `the workflow store ${store} holds no workflow called ${JSON.stringify(url)} (looked for ${url}.yaml, ${url}.yml and ${url}/workflow.yaml)`, {
    url,
  });
}

async function readRemote(url: string, config: SluiceConfig): Promise<WorkflowSource> {
  const downloads = join(config.workflowStore, '.downloads');
  await mkdir(downloads, { recursive: true });
  const file = join(downloads, `${randomBytes(8).toString('hex')}.yaml`);
  try {
    await downloadArchive(url, file, {
      maxBytes: MAX_WORKFLOW_BYTES,
      timeoutMs: config.download.timeoutMs,
      allowedPatterns: config.allowedUrls,
    });
    return { text: await readFile(file, 'utf8'), file: url, name: url };
  } finally {
    await rm(file, { force: true });
  }
}

/** A file of the workflow store that a registration names (a TorchServe spec's handler module). */
export async function readWorkflowModule(name: string, config: SluiceConfig): Promise<{ path: string }> {
  if (!STORE_NAME.test(name) || name.includes('..')) throw notAllowed(name, 'is not a plain file name in the workflow store');
  const path = join(config.workflowStore, name);
  if (!(await isFile(path))) {
    throw new SluiceError('SLUICE_WORKFLOW_NOT_FOUND', `the workflow store ${config.workflowStore} holds no file called ${JSON.stringify(name)}`, { file: name });
  }
  return { path };
}

/**
 * The handler module a TorchServe spec brings by convention: `<spec>.js` or `<spec>.mjs` next to it (or
 * `handler.js` in a workflow directory); undefined when there is none.
 */
export async function findSiblingModule(specFile: string): Promise<string | undefined> {
  const base = specFile.replace(/\.ya?ml$/, '');
  const candidates = [`${base}.js`, `${base}.mjs`, join(dirname(specFile), 'handler.js')];
  for (const path of candidates) if (await isFile(path)) return path;
  return undefined;
}

/** Names of the workflows in the store: `*.yaml`/`*.yml` files and directories holding `workflow.yaml`. */
export async function scanWorkflowStore(store: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  let entries;
  try {
    entries = await readdir(store, { withFileTypes: true });
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isFile() && /\.ya?ml$/.test(entry.name)) names.push(entry.name.replace(/\.ya?ml$/, ''));
    else if (entry.isDirectory() && (await isFile(join(store, entry.name, 'workflow.yaml')))) names.push(entry.name);
  }
  return [...new Set(names)].sort();
}
