import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readManifestBatching, type BenchBatching } from './bench-manifest.js';
import { type BenchModel } from './bench-models.js';
import { startHandRolled, startSluice, type BenchServer, type ServerLog } from './bench-processes.js';
import { cleanupOnInterrupt } from './child-processes.js';
import { type LoadRun } from './bench-results.js';
import { copyModelsToTempStore } from './bench-store.js';
import { type BenchRequest } from './request-bodies.js';

/** Setup c's batching: every request runs alone. */
export const BATCHING_OFF: BenchBatching = { maxBatchSize: 1, maxBatchDelayMs: 0 };

/** A served setup (b, c or d) of one model: how to start its server and what to send it. */
export interface ServerSetup {
  readonly setup: LoadRun['setup'];
  readonly model: BenchModel;
  readonly request: BenchRequest;
  start(): Promise<BenchServer>;
}

/**
 * Setup d's batching: the manifest's, with `maxBatchDelayMs` replaced when given; undefined keeps the
 * manifest as it is.
 */
async function batchingForD(model: BenchModel, maxBatchDelayMs: number | undefined): Promise<BenchBatching | undefined> {
  if (maxBatchDelayMs === undefined) return undefined;
  const manifest = readManifestBatching(await readFile(join(model.dir, 'model.yaml'), 'utf8'));
  return { maxBatchSize: manifest.maxBatchSize ?? 1, maxBatchDelayMs };
}

/** How {@link serverSetup} runs Sluice. */
export interface SluiceSetupOptions {
  /** Replaces the manifest's `maxBatchDelayMs` in setup d. */
  readonly maxBatchDelayMs?: number;
  /** Where Sluice's log goes; a file by default. */
  readonly serverLog?: ServerLog;
  /** False: Sluice answers without its inference lane, through Fastify and Nest. */
  readonly inferenceLane?: boolean;
}

/**
 * Setup `setup` of `model`. Sluice serves a copy of the model in a temporary store: with batching off
 * for c, with the manifest's own batching for d (its delay replaced by `maxBatchDelayMs` when given).
 * The copy goes when the server is stopped.
 */
export function serverSetup(setup: LoadRun['setup'], model: BenchModel, distRoot: string, options: SluiceSetupOptions = {}): ServerSetup {
  if (setup === 'b') {
    return { setup, model, request: model.handRolledRequest, start: () => startHandRolled(distRoot, join(model.dir, 'model.onnx')) };
  }
  return {
    setup,
    model,
    request: model.sluiceRequest,
    start: async () => {
      const batching = setup === 'c' ? BATCHING_OFF : await batchingForD(model, options.maxBatchDelayMs);
      const store = await copyModelsToTempStore([{ source: model.dir, name: model.name, ...(batching !== undefined ? { batching } : {}) }]);
      const removeStore = cleanupOnInterrupt(() => store.cleanup());
      try {
        const server = await startSluice(distRoot, store.dir, [model.name], {
          ...(options.serverLog !== undefined ? { log: options.serverLog } : {}),
          ...(options.inferenceLane !== undefined ? { inferenceLane: options.inferenceLane } : {}),
        });
        return {
          ...server,
          stop: async () => {
            await server.stop();
            await removeStore();
          },
        };
      } catch (error) {
        await removeStore();
        throw error;
      }
    },
  };
}

/** Sends `request` once and throws, with the answer, unless it succeeds: a benchmark of error pages is no benchmark. */
export async function assertServes(baseUrl: string, request: BenchRequest): Promise<void> {
  const response = await fetch(baseUrl + request.path, { method: 'POST', headers: request.headers, body: request.body });
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok) {
    throw new Error(`POST ${request.path} answered ${response.status}: ${body.toString('utf8', 0, Math.min(body.byteLength, 500))}`);
  }
}
