import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';

const STANDARD_OUTPUT_LOG = pathToFileURL(join(packageRoot(), 'dist', 'src', 'telemetry', 'logging', 'standard-output-log.js')).href;

/** Text of one, two, three and four UTF-8 bytes per character, so that byte and character counts differ. */
const MIXED_TEXT = 'plain, Grüße, 漢字, 🚀';

/**
 * Runs a built process that logs `lines` lines through the standard-output logger (each with its index
 * and {@link MIXED_TEXT}), waits for them to be written and exits; resolves with what it wrote to
 * standard output.
 */
function logInChild(lines: number): Promise<string> {
  const script = [
    `const { standardOutputLogger, flushStandardOutput } = await import(${JSON.stringify(STANDARD_OUTPUT_LOG)});`,
    `const logger = standardOutputLogger('info', 'json');`,
    `for (let i = 0; i < ${lines}; i++) logger.info('line', { i, text: ${JSON.stringify(MIXED_TEXT)} });`,
    'await flushStandardOutput();',
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(new Error(`the logging process exited with ${String(code)}`));
    });
  });
}

describe('the standard-output log of a built process', () => {
  it('writes every line whole and in order, multi-byte characters included, across many gathered writes', async () => {
    // About 100 bytes a line: 6,000 lines are some 50 writes of the 12 KiB the destination gathers.
    const written = (await logInChild(6000)).split('\n');
    expect(written.pop()).toBe('');
    const lines = written.map((line) => JSON.parse(line) as { msg: string; i: number; text: string });
    expect(lines.length).toBe(6000);
    expect(lines.every((line, index) => line.msg === 'line' && line.i === index && line.text === MIXED_TEXT)).toBe(true);
  }, 30_000);
});
