import { appendFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { lastLoggedError } from '../../../src/cli/start-log.js';
import { makeTempDir } from '../../support/temp-dir.js';

const line = (fields: Record<string, unknown>): string => `${JSON.stringify(fields)}\n`;

describe('the last error of a start in the background server log', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let log = '';
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-log-'));
    log = join(dir, 'sluice.log');
  });
  afterEach(() => cleanup());

  it('quotes the last error line with its error message', async () => {
    await writeFile(
      log,
      line({ level: 'error', msg: 'Error: listen EADDRINUSE' }) +
        line({ level: 'error', msg: 'Sluice could not start', error: { name: 'Error', message: 'listen EADDRINUSE: address already in use 127.0.0.1:8080' } }) +
        line({ level: 'info', msg: 'later' }),
    );
    expect(await lastLoggedError(log, 0)).toBe('Sluice could not start: listen EADDRINUSE: address already in use 127.0.0.1:8080');
  });

  it('reads only what was logged after the start began', async () => {
    await writeFile(log, line({ level: 'error', msg: 'an earlier run failed' }));
    const { size } = await stat(log);
    await appendFile(log, 'not json\n' + line({ level: 'info', msg: 'plugins loaded' }));
    expect(await lastLoggedError(log, size)).toBeUndefined();
  });

  it('is undefined for a log that does not exist', async () => {
    expect(await lastLoggedError(join(dir, 'missing.log'), 0)).toBeUndefined();
  });
});
