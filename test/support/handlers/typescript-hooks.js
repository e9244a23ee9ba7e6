/**
 * Node module hooks that let a worker thread load the TypeScript sources the way jest does: `.ts` files
 * are transpiled on load, and a `./x.js` import that has no file resolves to `./x.ts`. Worker threads
 * started by tests get them through `--import` (see `typescript-threads.ts`).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { URL, fileURLToPath } from 'node:url';
import ts from 'typescript';

export async function resolve(specifier, context, nextResolve) {
  const url = specifier.startsWith('file:') ? specifier : context.parentURL && /^\.{1,2}\//.test(specifier) ? new URL(specifier, context.parentURL).href : undefined;
  if (url?.endsWith('.js') && !existsSync(fileURLToPath(url))) {
    const source = url.slice(0, -'.js'.length) + '.ts';
    if (existsSync(fileURLToPath(source))) return { url: source, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts')) return nextLoad(url, context);
  const text = await readFile(fileURLToPath(url), 'utf8');
  const { outputText } = ts.transpileModule(text, {
    fileName: fileURLToPath(url),
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, inlineSourceMap: true, experimentalDecorators: true },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
