import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeErrorCode } from '../../sdk/files/error-facts.js';
import { isPathInside, relativePathProblem, type RelativePathProblem } from './path-containment.js';

/** Why a file reference did not resolve to a regular file inside its directory. */
export type ContainedFileProblem = RelativePathProblem | 'missing' | 'not-a-file' | 'escapes';

/** The outcome of {@link locateContainedFile}. */
export type ContainedFileResult =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly problem: ContainedFileProblem };

/**
 * Resolves `relativePath` against `baseDir` (absolute) and checks that it names a regular file
 * whose real location, after every symlink, is still inside the real `baseDir`. Returns the
 * joined (not symlink-resolved) absolute path.
 */
export async function locateContainedFile(baseDir: string, relativePath: string): Promise<ContainedFileResult> {
  const lexical = relativePathProblem(relativePath);
  if (lexical !== undefined) return { ok: false, problem: lexical };
  const path = join(baseDir, relativePath);
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    const code = nodeErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'missing' };
    if (code === 'ELOOP') return { ok: false, problem: 'not-a-file' };
    throw error;
  }
  if (!isPathInside(await realpath(baseDir), real)) return { ok: false, problem: 'escapes' };
  if (!(await stat(real)).isFile()) return { ok: false, problem: 'not-a-file' };
  return { ok: true, path };
}
