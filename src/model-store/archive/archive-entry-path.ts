import { relativePathProblem, type RelativePathProblem } from '../fs/path-containment.js';

/** The outcome of {@link normalizeArchivePath}. */
export type ArchivePathResult =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly problem: RelativePathProblem };

/**
 * Turns a tar entry name into the canonical relative path used inside Sluice (`./a//b/` → `a/b`),
 * or says why the name could reach outside the extraction directory. The archive root itself
 * (`./`) normalises to the empty path.
 */
export function normalizeArchivePath(name: string): ArchivePathResult {
  const problem = relativePathProblem(name);
  if (problem !== undefined && problem !== 'empty') return { ok: false, problem };
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  return { ok: true, path: segments.join('/') };
}
