import { describe, expect, it } from '@jest/globals';
import { UsageError } from '../../../src/cli/cli-errors.js';
import { parseCommandArguments } from '../../../src/cli/command-flags.js';

const OPTIONS = { format: { type: 'string' }, config: { type: 'string' } } as const;

/** The message of the UsageError `action` throws; fails the test when it throws none. */
function usageError(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error('no UsageError thrown');
}

describe('the arguments of a command that takes operands', () => {
  it('gives the operands in order, wherever they stand among the flags', () => {
    expect(parseCommandArguments(['--format', 'dot', 'ocr', '--config=a.yaml', 'more'], OPTIONS)).toEqual({
      values: { format: 'dot', config: 'a.yaml' },
      positionals: ['ocr', 'more'],
    });
  });

  it('refuses a flag given twice, as the other commands do', () => {
    expect(usageError(() => parseCommandArguments(['ocr', '--format', 'dot', '--format=mermaid'], OPTIONS))).toBe('--format is given more than once; give it once; see sluice --help');
  });

  it('refuses an unknown flag', () => {
    expect(usageError(() => parseCommandArguments(['ocr', '--colour'], OPTIONS))).toMatch(/^Unknown option '--colour'.*; see sluice --help$/);
  });
});
