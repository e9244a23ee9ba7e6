import { describe, expect, it } from '@jest/globals';
import { classCharacters, loadCharacterList, parseCharacterList } from '../../../../plugins/ocr/ctc/character-table.js';
import { ocrModelFiles } from '../../../../plugins/ocr/index.js';

describe('parseCharacterList', () => {
  it('takes one character per line, without a trailing empty entry', () => {
    expect(parseCharacterList('a\nb\nc\n')).toEqual(['a', 'b', 'c']);
  });

  it('strips Windows line endings', () => {
    expect(parseCharacterList('a\r\nb\r\n')).toEqual(['a', 'b']);
  });

  it('keeps whitespace characters that are entries', () => {
    expect(parseCharacterList('a\n\u3000\nb')).toEqual(['a', '\u3000', 'b']);
  });
});

describe('classCharacters', () => {
  it('maps class 0 to the blank and classes 1…n to the list in order', () => {
    expect(classCharacters(['a', 'b'], 3, 'ocr/ctc-decode')).toEqual(['', 'a', 'b']);
  });

  it('maps one extra class after the list to a space', () => {
    expect(classCharacters(['a', 'b'], 4, 'ocr/ctc-decode')).toEqual(['', 'a', 'b', ' ']);
  });

  it('refuses a class count that does not fit the list', () => {
    let thrown: unknown;
    try {
      classCharacters(['a', 'b'], 7, 'ocr/ctc-decode');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'SLUICE_HANDLER_FAILED', details: { classCount: 7, characters: 2 } });
  });

  it('fits the shipped character list to the recogniser, with the space last', async () => {
    const table = classCharacters(await loadCharacterList(ocrModelFiles().characters), 6625, 'ocr/ctc-decode');
    expect([table.length, table[0], table[1], table[6624]]).toEqual([6625, '', "'", ' ']);
  });

  it('fails naming a list file that cannot be read', async () => {
    await expect(loadCharacterList('/nonexistent/keys.txt')).rejects.toMatchObject({
      code: 'SLUICE_HANDLER_FAILED',
      details: { path: '/nonexistent/keys.txt' },
    });
  });
});
