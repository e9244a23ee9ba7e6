import { appendFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startErrorReport } from '../../../src/cli/start-log.js';
import { makeTempDir } from '../../support/temp-dir.js';

const line = (fields: Record<string, unknown>): string => `${JSON.stringify(fields)}\n`;

describe('the errors of a start in the background server log', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let log = '';
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-log-'));
    log = join(dir, 'sluice.log');
  });
  afterEach(() => cleanup());

  it('quotes each error line with its error message, oldest first, and no other log line', async () => {
    await writeFile(
      log,
      line({ level: 'info', msg: 'plugins loaded' }) +
        line({ level: 'error', msg: 'Error: listen EADDRINUSE' }) +
        line({ level: 'error', msg: 'Sluice could not start', error: { name: 'Error', message: 'listen EADDRINUSE: address already in use 127.0.0.1:8080' } }) +
        line({ level: 'info', msg: 'later' }),
    );
    expect(await startErrorReport(log, 0)).toEqual(['Error: listen EADDRINUSE', 'Sluice could not start: listen EADDRINUSE: address already in use 127.0.0.1:8080']);
  });

  it('quotes every line of an error message of several lines', async () => {
    const message = 'workflow w.yaml is invalid:\n  - node a: unknown model\n  - node b: unknown handler';
    await writeFile(log, line({ level: 'error', msg: 'Sluice could not start', error: { name: 'SluiceError', message } }));
    expect(await startErrorReport(log, 0)).toEqual(['Sluice could not start: workflow w.yaml is invalid:', '  - node a: unknown model', '  - node b: unknown handler']);
  });

  it('quotes what the server wrote to stderr, such as a sluice: problem report, beside its error lines', async () => {
    const report = 'sluice: SLUICE_AUTH_MANAGEMENT: `auth.management` names "nobody", which no auth plugin provides [SLUICE_CONFIG_INVALID]';
    await writeFile(log, `${report}\n${line({ level: 'info', msg: 'plugins loaded' })}`);
    expect(await startErrorReport(log, 0)).toEqual([report]);
  });

  it('keeps the last 40 lines of a long report, saying how many more the log holds', async () => {
    await writeFile(log, Array.from({ length: 100 }, (_, i) => line({ level: 'error', msg: `problem ${i}` })).join(''));
    const report = await startErrorReport(log, 0);
    expect(report).toHaveLength(40);
    expect(report[0]).toBe('… (61 earlier lines in the log)');
    expect(report.slice(1, 3)).toEqual(['problem 61', 'problem 62']);
    expect(report.at(-1)).toBe('problem 99');
  });

  it('cuts a very long line, saying so', async () => {
    await writeFile(log, line({ level: 'error', msg: 'x'.repeat(2500) }));
    expect(await startErrorReport(log, 0)).toEqual([`${'x'.repeat(2000)}… (500 more characters in the log)`]);
  });

  it('reads only what was logged after the start began', async () => {
    await writeFile(log, line({ level: 'error', msg: 'an earlier run failed' }) + 'an earlier stack trace\n');
    const { size } = await stat(log);
    await appendFile(log, line({ level: 'info', msg: 'plugins loaded' }));
    expect(await startErrorReport(log, size)).toEqual([]);
  });

  it('is empty for a log that does not exist', async () => {
    expect(await startErrorReport(join(dir, 'missing.log'), 0)).toEqual([]);
  });
});
