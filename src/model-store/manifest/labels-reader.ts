import { readFile } from 'node:fs/promises';
import { SluiceError } from '../../sdk/errors/index.js';
import { nodeErrorCode } from '../../sdk/files/error-facts.js';

/**
 * Reads a labels file: one label per line (`\n` or `\r\n`), index = line number from 0. Blank
 * lines at the end are ignored; blank lines in between keep their index as empty labels.
 */
export async function readLabels(path: string): Promise<readonly string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = nodeErrorCode(error);
    if (code !== 'ENOENT' && code !== 'EISDIR' && code !== 'ENOTDIR') throw error;
    throw new SluiceError(
      'SLUICE_MANIFEST_NOT_FOUND',
      `${path}: labels file cannot be read (${code}); restore it or remove \`labels\` from model.yaml`,
      { source: path },
    );
  }
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  return Object.freeze(lines);
}
