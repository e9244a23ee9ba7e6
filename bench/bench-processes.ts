import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A server the benchmark started, and how to reach and stop it. */
export interface BenchServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

function waitForLine(child: ChildProcess, match: (line: string) => string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (const line of buffer.split('\n')) {
        const found = match(line);
        if (found !== undefined) resolve(found);
      }
    });
    child.once('exit', (code) => {
      reject(new Error(`server exited with ${String(code)} before it was ready`));
    });
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) {
        resolve();
        return;
      }
      child.once('exit', () => {
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/** Starts the hand-rolled Fastify + onnxruntime-node server on `modelPath`. */
export async function startHandRolled(distRoot: string, modelPath: string): Promise<BenchServer> {
  const child = spawn(process.execPath, [join(distRoot, 'bench', 'baseline', 'hand-rolled-server.js'), modelPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await waitForLine(child, (line) => /^ready (\d+)$/.exec(line)?.[1]);
  return { baseUrl: `http://127.0.0.1:${port}`, stop: stopper(child) };
}

/** Starts Sluice (`sluice start --foreground`) serving `models` from `modelStore` on ephemeral ports. */
export async function startSluice(distRoot: string, modelStore: string, models: readonly string[]): Promise<BenchServer> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-'));
  const config = join(dir, 'sluice.yaml');
  await writeFile(
    config,
    [
      'inference: { port: 0 }',
      'management: { port: 0 }',
      'metrics: { port: 0 }',
      `modelStore: ${JSON.stringify(modelStore)}`,
      `models: ${JSON.stringify(models)}`,
      'snapshot: { enabled: false }',
      'logLevel: info',
      '',
    ].join('\n'),
  );
  const child = spawn(process.execPath, [join(distRoot, 'src', 'main.js'), 'start', '--foreground', '--config', config], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await waitForLine(child, (line) => {
    if (!line.startsWith('{')) return undefined;
    const parsed = JSON.parse(line) as { msg?: string; inference?: string };
    return parsed.msg === 'Sluice is serving' ? parsed.inference : undefined;
  });
  return { baseUrl: url, stop: stopper(child) };
}
