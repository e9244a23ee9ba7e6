import { writeFile } from 'node:fs/promises';

/**
 * Writes a Sluice config serving `models` from `modelStore` on ports the OS picks, snapshots off, with
 * `extraLines` (YAML) appended. The management API is left open (no key file): the benchmark's servers
 * listen on loopback only and live for one run.
 */
export async function writeBenchConfig(path: string, modelStore: string, models: readonly string[], extraLines: readonly string[] = []): Promise<void> {
  await writeFile(
    path,
    [
      'inference: { port: 0 }',
      'management: { port: 0 }',
      'metrics: { port: 0 }',
      'auth: { management: none }',
      'grpc: { inference: { port: 0 }, management: { port: 0 } }',
      `modelStore: ${JSON.stringify(modelStore)}`,
      `models: ${JSON.stringify(models)}`,
      'snapshot: { enabled: false }',
      'logLevel: info',
      ...extraLines,
      '',
    ].join('\n'),
  );
}
