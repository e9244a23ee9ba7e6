import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../src/package-files/package-root.js';

/** Markdown files in `dir` (relative to the package root), sorted; none when it does not exist. */
function markdownIn(dir: string): string[] {
  const abs = join(packageRoot(), dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => (dir === '.' ? name : `${dir}/${name}`));
}

/** READMEs one level below `dir`: `plugins/ocr/README.md`, … */
function readmesUnder(dir: string): string[] {
  const abs = join(packageRoot(), dir);
  return readdirSync(abs, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(abs, entry.name, 'README.md')))
    .map((entry) => `${dir}/${entry.name}/README.md`)
    .sort();
}

/**
 * The documentation a reader is sent to, relative to the package root: the README, every page of `docs/`,
 * the benchmark's history, the workflow store's README and the READMEs of the built-in and example plugins.
 */
export function documentationFiles(): string[] {
  return [
    'README.md',
    ...markdownIn('docs'),
    ...markdownIn('bench'),
    ...markdownIn('workflows'),
    ...readmesUnder('plugins'),
    ...readmesUnder('examples'),
  ];
}
