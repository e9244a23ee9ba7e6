import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from './temp-dir.js';
import { copyDemoModels, startTestServer, type TestServer } from './test-server.js';

/** A server started from a snapshot edited by hand, and how to stop it and remove its folder. */
export interface EditedSnapshotServer {
  readonly server: TestServer;
  stop(): Promise<void>;
}

/**
 * Starts a server serving the demo `iris` once, so that it writes its snapshot, edits every model entry of
 * that snapshot with `edit` (what the management APIs never write), then starts a second server from it.
 */
export async function startFromEditedSnapshot(tempPrefix: string, edit: (model: Record<string, unknown>) => void): Promise<EditedSnapshotServer> {
  const { dir, cleanup } = await makeTempDir(tempPrefix);
  try {
    const first = await startTestServer({ dir, demoModels: ['iris'], prepare: (store) => copyDemoModels(store, ['iris']) });
    await first.server.stop();
    const file = join(dir, 'snapshot.json');
    const snapshot = JSON.parse(await readFile(file, 'utf8')) as { models: Record<string, unknown>[] };
    for (const model of snapshot.models) edit(model);
    await writeFile(file, JSON.stringify(snapshot));
    const server = await startTestServer({ dir });
    return {
      server,
      stop: async () => {
        await server.server.stop();
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
