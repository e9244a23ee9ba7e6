import { readFile } from 'node:fs/promises';
import { SluiceError } from '../../../src/sdk/index.js';

/**
 * The characters of a PP-OCR character list file: one per line, in class order, without line endings;
 * a final line ending does not add an empty entry. Other whitespace is kept (the list may contain U+3000).
 */
export function parseCharacterList(text: string): string[] {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

const loaded = new Map<string, Promise<readonly string[]>>();

/**
 * Reads and parses a character list file once per path. A file that cannot be read throws
 * `SLUICE_HANDLER_FAILED` naming it (and is tried again on the next call).
 */
export function loadCharacterList(path: string): Promise<readonly string[]> {
  let pending = loaded.get(path);
  if (pending === undefined) {
    pending = readFile(path, 'utf8').then(parseCharacterList, (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new SluiceError('SLUICE_HANDLER_FAILED', `cannot read the OCR character list ${path}: ${reason}`, { path }, { cause: error });
    });
    pending.catch(() => loaded.delete(path));
    loaded.set(path, pending);
  }
  return pending;
}

/**
 * What each recogniser class stands for: class 0 is the CTC blank (the empty string), classes 1…n are
 * the list's characters in order, and when the model has one class more than that, the last class is a
 * space. Any other class count means the list does not belong to the model, and throws
 * `SLUICE_HANDLER_FAILED`.
 */
export function classCharacters(characters: readonly string[], classCount: number, handler: string): readonly string[] {
  const table = ['', ...characters];
  if (classCount === table.length + 1) table.push(' ');
  if (classCount !== table.length) {
    throw new SluiceError(
      'SLUICE_HANDLER_FAILED',
      `${handler}: the recogniser has ${classCount} classes but the character list has ${characters.length} characters; ` +
        `expected ${characters.length + 1} (blank + characters) or ${characters.length + 2} (and a space)`,
      { handler, classCount, characters: characters.length },
    );
  }
  return table;
}
