import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { writeBenchConfig } from '../bench-config.js';

/** A Sluice server started for the benchmark. */
export interface SluiceProcess {
  readonly inference: string;
  readonly management: string;
  /** Versions the server loaded at start-up, as `name@version`. */
  readonly loaded: readonly string[];
  /** Log lines (parsed JSON) at warn or above, and every line about execution providers. */
  readonly notable: readonly Record<string, unknown>[];
  stop(): Promise<void>;
}

/** Lines worth showing in the benchmark's report. */
const isNotable = (line: Record<string, unknown>): boolean =>
  line.level === 'warn' || line.level === 'error' || (typeof line.msg === 'string' && line.msg.startsWith('execution provider'));

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve();
        return;
      }
      child.once('exit', () => {
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/**
 * Starts `node <distRoot>/src/main.js start --foreground` in `dir` with a config serving `models` from
 * `modelStore` on ports the OS picks, and resolves once it says it is serving.
 */
export async function startSluiceProcess(distRoot: string, dir: string, modelStore: string, models: readonly string[]): Promise<SluiceProcess> {
  const config = join(dir, 'sluice.yaml');
  await writeBenchConfig(config, modelStore, models, ['maxRequestSizeBytes: 67108864']);
  const child = spawn(process.execPath, [join(distRoot, 'src', 'main.js'), 'start', '--foreground', '--config', config], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const notable: Record<string, unknown>[] = [];
  return new Promise((resolve, reject) => {
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const text of lines) {
        if (!text.startsWith('{')) continue;
        const line = JSON.parse(text) as Record<string, unknown>;
        if (isNotable(line)) notable.push(line);
        if (line.msg === 'Sluice is serving') {
          resolve({
            inference: String(line.inference),
            management: String(line.management),
            loaded: Array.isArray(line.models) ? line.models.map(String) : [],
            notable,
            stop: stopper(child),
          });
        }
      }
    });
    child.once('exit', (code) => {
      reject(new Error(`Sluice exited with ${String(code)} before serving; last notable lines: ${JSON.stringify(notable.slice(-5))}`));
    });
  });
}

/** Scales `model` to exactly `workers` instances through the management API. */
export async function scaleModel(management: string, model: string, workers: number): Promise<void> {
  const res = await fetch(`${management}/models/${model}?min_worker=${workers}&max_worker=${workers}`, { method: 'PUT' });
  if (!res.ok) throw new Error(`scaling ${model} to ${workers} answered ${res.status}: ${await res.text()}`);
}
