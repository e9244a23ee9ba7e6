import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForFileLine, waitForStdoutLine } from '../../../bench/child-processes.js';

/** A node child that runs `script`, with its stdout piped. */
function child(script: string): ReturnType<typeof spawn> {
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
}

describe('waitForStdoutLine', () => {
  it('resolves with what the first matching line gives', async () => {
    const spawned = child(`process.stdout.write('starting\\nready 4242\\nready 1\\n')`);
    await expect(waitForStdoutLine(spawned, (line) => /^ready (\d+)$/.exec(line)?.[1])).resolves.toBe('4242');
    await once(spawned, 'exit');
  });

  it('reads a character split between two writes whole', async () => {
    const spawned = child(`process.stdout.write(Buffer.from([0x63, 0x61, 0x66, 0xc3])); setTimeout(() => process.stdout.write(Buffer.from([0xa9, 0x0a])), 50)`);
    await expect(waitForStdoutLine(spawned, (line) => (line.length > 0 ? line : undefined))).resolves.toBe('café');
    await once(spawned, 'exit');
  });

  it('keeps reading what the child writes after the match, so that it never blocks on a full pipe', async () => {
    const spawned = child(`process.stdout.write('ready\\n'); setTimeout(() => { process.stdout.write('x'.repeat(1 << 20) + '\\n'); }, 50)`);
    await waitForStdoutLine(spawned, (line) => (line === 'ready' ? true : undefined));
    const [code] = (await once(spawned, 'exit')) as [number];
    expect(code).toBe(0);
  });

  it('rejects when the child exits before a line matches', async () => {
    const spawned = child(`process.stdout.write('nothing to see\\n')`);
    await expect(waitForStdoutLine(spawned, () => undefined)).rejects.toThrow('the server exited (0) before it was ready');
  });
});

describe('waitForFileLine', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'file-line-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A node child that runs `script` with `path` as `process.argv[1]`. */
  function writer(script: string, path: string): ReturnType<typeof spawn> {
    return spawn(process.execPath, ['-e', script, path], { stdio: 'ignore' });
  }

  it('resolves with what the first whole matching line gives, once the child has written it', async () => {
    const path = join(dir, 'out.log');
    const spawned = writer(
      `const fs = require('node:fs'); const p = process.argv[1]; fs.writeFileSync(p, 'starting\\nready 42'); setTimeout(() => fs.appendFileSync(p, '42\\nready 1\\n'), 100)`,
      path,
    );
    const exited = once(spawned, 'exit');
    await expect(waitForFileLine(spawned, path, (line) => /^ready (\d+)$/.exec(line)?.[1])).resolves.toBe('4242');
    await exited;
  });

  it('finds a line the child wrote just before it exited, between two looks at the file', async () => {
    const path = join(dir, 'out.log');
    await writeFile(path, 'ready 7\n');
    // A stand-in that exits at once, before the first look at the file.
    const child = new EventEmitter();
    const ready = waitForFileLine(child, path, (line) => /^ready (\d+)$/.exec(line)?.[1]);
    child.emit('exit', 0, null);
    await expect(ready).resolves.toBe('7');
  });

  it('rejects with the file\'s last lines when the child exits before a line matches', async () => {
    const path = join(dir, 'out.log');
    const spawned = writer(`require('node:fs').writeFileSync(process.argv[1], 'port 1 is taken\\n')`, path);
    await expect(waitForFileLine(spawned, path, () => undefined)).rejects.toThrow('the server exited (0) before it was ready; its output ended with:\nport 1 is taken');
  });
});
