import { execFileSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { NO_PRETENURING_FLAG, tuneGarbageCollector } from '../../../src/cli/garbage-collector-tuning.js';

/** Runs the tuning with `execArgv`, and answers the flags it handed to V8. */
function flagsSetWith(execArgv: readonly string[]): string[] {
  const set: string[] = [];
  tuneGarbageCollector(execArgv, (flags) => set.push(flags));
  return set;
}

describe('tuneGarbageCollector', () => {
  it('turns allocation-site pretenuring off in a process started without a word of it', () => {
    expect(flagsSetWith(['--enable-source-maps'])).toEqual([NO_PRETENURING_FLAG]);
  });

  it('keeps V8’s default for a process started with --allocation-site-pretenuring', () => {
    expect(flagsSetWith(['--allocation-site-pretenuring'])).toEqual([]);
  });

  it('leaves a process started with --no-allocation-site-pretenuring as it is', () => {
    expect(flagsSetWith(['--no-allocation_site_pretenuring'])).toEqual([]);
  });

  it('names a flag this Node.js\'s V8 knows', () => {
    const v8Options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    expect(v8Options).toContain(`--${NO_PRETENURING_FLAG.slice('--no-'.length)} `);
  });
});
