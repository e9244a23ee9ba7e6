import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SluiceError } from '../../sdk/errors/index.js';
import type { SluicePlugin } from '../../sdk/plugin/plugin.js';

/** Whether this code runs from TypeScript sources (the test runner) rather than a build. */
const RUNNING_FROM_SOURCES = import.meta.url.endsWith('.ts');

/**
 * The file to import for a plugin's entry module. Third-party plugins ship JavaScript, so that is the
 * file as written. Built-in plugins live in the source tree as TypeScript: a build runs the compiled
 * copy under `dist/`, and the test runner (which compiles on the fly) the `.ts` beside the manifest.
 */
export function pluginEntryFile(folder: string, main: string, packageRoot: string): string {
  const written = resolve(folder, main);
  const compiled = join(packageRoot, 'dist', relative(packageRoot, written));
  const source = written.replace(/\.js$/, '.ts');
  const insideSluice = !relative(packageRoot, written).startsWith('..');
  const candidates = !insideSluice ? [written] : RUNNING_FROM_SOURCES ? [source, written, compiled] : [written, compiled, source];
  return candidates.find((file) => existsSync(file)) ?? written;
}

function isSluicePlugin(value: unknown): value is SluicePlugin {
  return typeof value === 'object' && value !== null && typeof (value as { register?: unknown }).register === 'function';
}

/**
 * Imports a plugin's entry module and returns its default export. Throws `SLUICE_PLUGIN_LOAD_FAILED`
 * naming the plugin when the module cannot be imported or exports no plugin object.
 */
export async function importPlugin(name: string, file: string): Promise<SluicePlugin> {
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `plugin ${name}: cannot import its entry module ${file} (field \`main\`): ${reason}`, { plugin: name, field: 'main' }, { cause: error });
  }
  if (!isSluicePlugin(module.default)) {
    throw new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `plugin ${name}: ${file} has no default export with a \`register\` function; export default definePlugin({ register(context) { … } })`, {
      plugin: name,
      field: 'main',
    });
  }
  return module.default;
}
