import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as turnEnd } from 'node:timers/promises';
import { BufferedLogOutput, standardOutput } from '../../../../src/telemetry/logging/buffered-log-output.js';

let dir: string;
let path: string;
let fd: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sluice-log-output-'));
  path = join(dir, 'out.log');
  fd = openSync(path, 'w');
});

afterEach(() => {
  try {
    closeSync(fd);
  } catch {
    // closed by the test
  }
  rmSync(dir, { recursive: true, force: true });
});

const written = (): string => readFileSync(path, 'utf8');
const noExitHook = (): void => undefined;

describe('BufferedLogOutput', () => {
  it('writes the lines of one turn together when the turn ends, in order', async () => {
    const output = new BufferedLogOutput(fd, noExitHook);
    output.write('{"n":1}\n');
    output.write('{"n":2}\n');
    expect(written()).toBe('');
    await turnEnd();
    expect(written()).toBe('{"n":1}\n{"n":2}\n');
  });

  it('writes at once once 16 KiB of lines are waiting', () => {
    const output = new BufferedLogOutput(fd, noExitHook);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 16; i++) output.write(line);
    expect(written()).toBe(line.repeat(16));
  });

  it('writes lines of several bytes per character whole', async () => {
    const output = new BufferedLogOutput(fd, noExitHook);
    output.write('{"model":"modèle ✓"}\n');
    await turnEnd();
    expect(written()).toBe('{"model":"modèle ✓"}\n');
  });

  it('writes what is waiting when the process exits', () => {
    let atExit: (() => void) | undefined;
    const output = new BufferedLogOutput(fd, (flush) => {
      atExit = flush;
    });
    output.write('{"msg":"second signal"}\n');
    atExit?.();
    expect(written()).toBe('{"msg":"second signal"}\n');
  });

  it('drops the lines it cannot write rather than throwing, and writes later ones', async () => {
    const output = new BufferedLogOutput(fd, noExitHook);
    closeSync(fd);
    output.write('lost\n');
    expect(() => {
      output.flush();
    }).not.toThrow();
    fd = openSync(path, 'a');
    const reopened = new BufferedLogOutput(fd, noExitHook);
    reopened.write('kept\n');
    await turnEnd();
    expect(written()).toBe('kept\n');
  });

  it('is one output for standard output, however many loggers ask', () => {
    expect(standardOutput()).toBe(standardOutput());
  });
});
