import { stat } from 'node:fs/promises';

/** The permission bits of `path` in octal, as `ls -l` and `chmod` speak of them: `'700'`, `'600'`. */
export async function permissionsOf(path: string): Promise<string> {
  return ((await stat(path)).mode & 0o777).toString(8);
}
