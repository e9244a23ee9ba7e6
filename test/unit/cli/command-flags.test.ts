import { describe, expect, it } from '@jest/globals';
import { UsageError } from '../../../src/cli/cli-errors.js';
import { backgroundServerArgs, parseStartFlags } from '../../../src/cli/start-flags.js';
import { parseServerFlags } from '../../../src/cli/server-flags.js';

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

describe('command-line flags', () => {
  it('refuses a flag given twice, naming it', () => {
    expect(usageError(() => parseStartFlags(['--config', 'a.yaml', '--config=b.yaml']))).toBe('--config is given more than once; give it once; see sluice --help');
  });

  it('refuses a boolean flag given twice', () => {
    expect(usageError(() => parseStartFlags(['--foreground', '--foreground']))).toBe('--foreground is given more than once; give it once; see sluice --help');
  });

  it('refuses an empty --config, which would name the working directory', () => {
    expect(usageError(() => parseStartFlags(['--config=']))).toBe('--config needs a value; it was given an empty one; see sluice --help');
  });

  it('takes an empty --models as no models, as SLUICE_MODELS= does', () => {
    expect(parseStartFlags(['--models=']).overrides).toEqual({ models: [] });
  });

  it('reads --log-format into the log format', () => {
    expect(parseStartFlags(['--log-format', 'pretty']).overrides).toEqual({ logFormat: 'pretty' });
  });

  it('refuses a --log-format that is no format, naming the formats', () => {
    expect(usageError(() => parseStartFlags(['--log-format=text']))).toBe('--log-format must be one of auto, json, pretty');
  });

  it.each([
    [['--log-format', 'pretty', '--foreground'], ['--foreground', '--log-format', 'json']],
    [['--config', 'a.yaml', '--log-format=auto'], ['--config', 'a.yaml', '--log-format', 'json']],
    [['--models', 'iris'], ['--models', 'iris', '--log-format', 'json']],
  ])('gives a background server %j as %j: its log file is always JSON', (args, expected) => {
    expect(backgroundServerArgs(args)).toEqual(expected);
  });

  it('reads --config of stop and status', () => {
    expect(parseServerFlags(['--config', 'conf/sluice.yaml'])).toEqual({ configFile: 'conf/sluice.yaml' });
  });

  it('refuses an argument of stop and status that is no flag', () => {
    expect(usageError(() => parseServerFlags(['now']))).toBe("Unexpected argument 'now'. This command does not take positional arguments; see sluice --help");
  });

  it('refuses a flag stop and status do not have', () => {
    expect(usageError(() => parseServerFlags(['--force']))).toBe("Unknown option '--force'; see sluice --help");
  });
});
