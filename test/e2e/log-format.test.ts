import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CLI_MAIN, freePort, runCli } from '../support/cli-process.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { makeTempDir } from '../support/temp-dir.js';

/** A pretty line: local time of day, level, message, then the fields as JSON. */
const PRETTY_LINE = /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] (DEBUG|INFO|WARN|ERROR): (.*?)(?: (\{.*\}))?$/;

/**
 * Runs `sluice start --foreground <args>` in `cwd` with its standard output on a pipe, stops it with
 * SIGTERM once its output contains `readyText`, and resolves with its exit code and whole output.
 */
function serveUntil(args: readonly string[], cwd: string, readyText: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [CLI_MAIN, 'start', '--foreground', ...args], { cwd, env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  let stopped = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (!stopped && stdout.includes(readyText)) {
      stopped = true;
      child.kill('SIGTERM');
    }
  });
  return new Promise((resolve) => {
    child.once('close', (code) => {
      resolve({ code, stdout });
    });
  });
}

function outputLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line !== '');
}

describe('log format of the built server', () => {
  let dir = '';
  let config = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-log-format-'));
    await mkdir(join(dir, 'model-store'));
    config = join(dir, 'sluice.yaml');
    await writeFile(config, ['inference: { port: 0 }', 'management: { port: 0 }', 'metrics: { port: 0 }', 'grpc: { enabled: false }', 'modelStore: ./model-store', 'snapshot: { enabled: false }', ''].join('\n'));
  });
  afterEach(async () => {
    await cleanup();
  });

  it('writes pretty lines with --log-format pretty, to a pipe too, the last one logged at the stop included', async () => {
    const { code, stdout } = await serveUntil(['--config', config, '--log-format', 'pretty'], dir, 'Sluice is serving');
    const lines = outputLines(stdout);
    expect({ code, notPretty: lines.filter((line) => !PRETTY_LINE.test(line)) }).toEqual({ code: 0, notPretty: [] });
    const serving = lines.map((line) => PRETTY_LINE.exec(line)!).find((match) => match[2] === 'Sluice is serving');
    expect(serving?.[1]).toBe('INFO');
    expect(JSON.parse(serving?.[3] ?? '{}')).toMatchObject({ inference: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) as unknown, models: [], failedModels: 0 });
    expect(lines.at(-1)).toMatch(/\] INFO: stopped \{"drained":true\}$/);
  }, 30_000);

  it('writes JSON lines when standard output is no terminal and no format is set', async () => {
    const { code, stdout } = await serveUntil(['--config', config], dir, 'Sluice is serving');
    const lines = outputLines(stdout).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(code).toBe(0);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'info', msg: 'Sluice is serving', models: [] }));
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'stopped', drained: true });
  }, 30_000);

  it('takes the format from SLUICE_LOG_FORMAT', async () => {
    const { stdout } = await serveUntil(['--config', config], dir, 'Sluice is serving', { SLUICE_LOG_FORMAT: 'pretty' });
    expect(outputLines(stdout).filter((line) => !PRETTY_LINE.test(line))).toEqual([]);
  }, 30_000);

  it('writes JSON to the log file of a background server, whatever --log-format and SLUICE_LOG_FORMAT say', async () => {
    const started = await runCli(['start', '--config', config, '--log-format', 'pretty'], dir, { SLUICE_LOG_FORMAT: 'pretty' });
    expect(started).toMatchObject({ code: 0, stderr: '' });
    expect(await runCli(['stop', '--config', config], dir)).toMatchObject({ code: 0 });
    const lines = outputLines(await readFile(join(dir, '.sluice', 'sluice.log'), 'utf8')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'info', msg: 'Sluice is serving' }));
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });
  }, 60_000);

  it('writes the lines logged before an uncaught error ends the process', async () => {
    await writePluginFolder(
      join(dir, 'faulty'),
      { name: 'faulty' },
      "export default { register(c) { c.logger.warn('about to fail', { step: 1 }); setImmediate(() => { throw new Error('faulty plugin fault'); }); } };\n",
    );
    const finished = await runCli(['start', '--foreground', '--config', config], dir, { SLUICE_PLUGINS: '[{"path": "./faulty"}]' });
    expect(finished.stderr).toContain('faulty plugin fault');
    expect(finished.code).not.toBe(0);
    const lines = outputLines(finished.stdout).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'about to fail', step: 1 }));
  }, 30_000);

  it('keeps serving, and stops cleanly, when the reader of its log goes away', async () => {
    const port = await freePort();
    await writeFile(config, (await readFile(config, 'utf8')).replace('inference: { port: 0 }', `inference: { port: ${port} }`));
    const child = spawn(process.execPath, [CLI_MAIN, 'start', '--foreground', '--config', config], { cwd: dir, env: { PATH: process.env['PATH'] }, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdout.destroy();
    let status = 0;
    for (let tries = 0; tries < 300 && status !== 200; tries++) {
      status = await fetch(`http://127.0.0.1:${port}/ping`).then(
        (answer) => answer.status,
        () => 0,
      );
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGTERM');
    expect({ status, exit: await exited }).toEqual({ status: 200, exit: 0 });
  }, 60_000);
});
