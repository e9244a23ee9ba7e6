import { readFile } from 'node:fs/promises';

/**
 * The pid a pid or lock file holds: null when there is no such file, undefined when it holds no pid (being
 * written this moment, or broken).
 */
export async function readPidFile(file: string): Promise<number | null | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  return /^\d+$/.test(text.trim()) && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}
