import { type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBenchConfig } from './bench-config.js';
import { writeLaneOffPlugin } from './lane-off-plugin.js';
import { cleanupOnInterrupt, spawnTracked, stopChild, waitForFileLine, waitForStdoutLine } from './child-processes.js';
import { keepOnnxRuntimeTelemetryOff } from '../src/runtime/onnx/onnx-runtime-telemetry.js';

/** A server the benchmark started, and how to reach and stop it. */
export interface BenchServer {
  readonly baseUrl: string;
  /** The management API (Sluice only). */
  readonly managementUrl?: string;
  /** The metrics port, serving `/metrics` (Sluice only). */
  readonly metricsUrl?: string;
  /** `host:port` of the gRPC inference API (Sluice only). */
  readonly grpcInference?: string;
  /** The server's process id. */
  readonly pid: number;
  stop(): Promise<void>;
}

/** Starts `script` (under `dist/bench/baseline/`) and waits for its `ready <port>` line. */
async function startBaseline(distRoot: string, script: string, args: readonly string[]): Promise<BenchServer> {
  // Sluice keeps ONNX Runtime's usage telemetry off unless told otherwise; the baseline does the same,
  // so that both run the runtime alike.
  const env = { ...process.env };
  keepOnnxRuntimeTelemetryOff(env);
  const child = spawnTracked(process.execPath, [join(distRoot, 'bench', 'baseline', script), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await waitForStdoutLine(child, (line) => /^ready (\d+)$/.exec(line)?.[1]);
    return { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Starts the hand-rolled Fastify + onnxruntime-node server on `modelPath`. */
export function startHandRolled(distRoot: string, modelPath: string): Promise<BenchServer> {
  return startBaseline(distRoot, 'hand-rolled-server.js', [modelPath]);
}

/** Starts the HTTP floor: a Fastify route that reads the body and answers fixed bytes, no model. */
export function startHttpFloor(distRoot: string): Promise<BenchServer> {
  return startBaseline(distRoot, 'http-floor-server.js', []);
}

/** Where Sluice listens, from its "Sluice is serving" log line. */
interface ServingLine {
  readonly inference: string;
  readonly management: string;
  readonly metrics?: string;
  readonly grpcInference?: string;
}

function servingLine(line: string): ServingLine | undefined {
  if (!line.startsWith('{')) return undefined;
  const parsed = JSON.parse(line) as { msg?: unknown; inference?: unknown; management?: unknown; metrics?: unknown; grpcInference?: unknown };
  if (parsed.msg !== 'Sluice is serving' || typeof parsed.inference !== 'string' || typeof parsed.management !== 'string') return undefined;
  return {
    inference: parsed.inference,
    management: parsed.management,
    ...(typeof parsed.metrics === 'string' ? { metrics: parsed.metrics } : {}),
    ...(typeof parsed.grpcInference === 'string' ? { grpcInference: parsed.grpcInference } : {}),
  };
}

/**
 * Where a benchmarked Sluice writes its log: `file`, a file in its temporary directory, as `sluice start`
 * does when it runs in the background; `pipe`, a pipe the benchmark's own process reads and drops, so
 * each write wakes the process that also generates the load.
 */
export type ServerLog = 'file' | 'pipe';

/** The server logs in {@link ServerLog}. */
export const SERVER_LOGS: readonly ServerLog[] = ['file', 'pipe'];

/** How {@link startSluice} runs the server. */
export interface SluiceProcessOptions {
  /** Its environment (telemetry benchmarks set `OTEL_*` there); the benchmark's own by default. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where its log goes; `file` by default. */
  readonly log?: ServerLog;
  /** False: its inference port answers through Fastify and Nest, without the inference lane ({@link writeLaneOffPlugin}). */
  readonly inferenceLane?: boolean;
}

/**
 * Starts Sluice (`sluice start --foreground`) serving `models` from `modelStore` on ephemeral ports, with
 * snapshots off and its configuration (and its log, when that goes to a file) in a temporary directory
 * removed on stop.
 */
export async function startSluice(distRoot: string, modelStore: string, models: readonly string[], options: SluiceProcessOptions = {}): Promise<BenchServer> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-'));
  const removeDir = cleanupOnInterrupt(() => rm(dir, { recursive: true, force: true }));
  const config = join(dir, 'sluice.yaml');
  // JSON is YAML too.
  await writeBenchConfig(config, modelStore, models, options.inferenceLane === false ? [`plugins: [${JSON.stringify(await writeLaneOffPlugin(dir))}]`] : []);
  const logPath = join(dir, 'sluice.log');
  const logFd = (options.log ?? 'file') === 'file' ? openSync(logPath, 'w') : undefined;
  const spawnServer = (): ChildProcess => {
    try {
      return spawnTracked(process.execPath, [join(distRoot, 'src', 'main.js'), 'start', '--foreground', '--config', config], {
        cwd: dir,
        env: options.env ?? process.env,
        stdio: ['ignore', logFd ?? 'pipe', 'inherit'],
      });
    } finally {
      // The child holds its own copy of the descriptor.
      if (logFd !== undefined) closeSync(logFd);
    }
  };
  const child = spawnServer();
  const stop = async (): Promise<void> => {
    await stopChild(child);
    await removeDir();
  };
  try {
    const urls = logFd !== undefined ? await waitForFileLine(child, logPath, servingLine) : await waitForStdoutLine(child, servingLine);
    return {
      baseUrl: urls.inference,
      managementUrl: urls.management,
      ...(urls.metrics !== undefined ? { metricsUrl: urls.metrics } : {}),
      ...(urls.grpcInference !== undefined ? { grpcInference: urls.grpcInference } : {}),
      pid: child.pid ?? 0,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
