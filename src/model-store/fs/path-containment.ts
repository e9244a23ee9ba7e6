import { isAbsolute, relative, win32 } from 'node:path';

/** True when `child` is `parent` itself or lies below it (both absolute, already resolved). */
export function isPathInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + '/') && !rel.startsWith('..\\') && !isAbsolute(rel));
}

/** Why a relative file reference (a manifest key, an archive entry name) cannot be used. */
export type RelativePathProblem = 'empty' | 'nul' | 'absolute' | 'backslash' | 'parent-segment';

/**
 * Checks a `/`-separated path that must stay below the directory it is relative to, on every
 * platform: no NUL, no absolute or drive-letter form, no backslash, no `..` segment.
 */
export function relativePathProblem(value: string): RelativePathProblem | undefined {
  if (value === '') return 'empty';
  if (value.includes('\0')) return 'nul';
  if (value.startsWith('/') || win32.isAbsolute(value) || /^[A-Za-z]:/.test(value)) return 'absolute';
  if (value.includes('\\')) return 'backslash';
  if (value.split('/').includes('..')) return 'parent-segment';
  return undefined;
}

/** A sentence for each {@link RelativePathProblem}, saying what is allowed instead. */
export const RELATIVE_PATH_PROBLEM_TEXT: Readonly<Record<RelativePathProblem, string>> = {
  empty: 'is empty',
  nul: 'contains a NUL byte',
  absolute: 'is an absolute path; only paths relative to the model directory are allowed',
  backslash: "contains a backslash; separate directories with '/'",
  'parent-segment': "contains a '..' segment; paths must stay inside the model directory",
};
