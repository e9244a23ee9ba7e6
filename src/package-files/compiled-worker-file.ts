import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './package-root.js';

/**
 * The compiled JavaScript of a worker thread module, given as a URL relative to the caller's own module
 * (`new URL('./x-thread.js', import.meta.url)`). A build runs it beside the caller; the test runner, which
 * compiles TypeScript on the fly, runs the build's copy under `dist/` (a worker thread cannot load
 * TypeScript by itself). Undefined when there is none.
 */
export function compiledWorkerFile(module: URL): string | undefined {
  const here = fileURLToPath(module);
  if (existsSync(here)) return here;
  const root = packageRoot();
  const compiled = join(root, 'dist', relative(root, here));
  return existsSync(compiled) ? compiled : undefined;
}
