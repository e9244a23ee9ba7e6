import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { BlobServiceClient } from '@azure/storage-blob';

/** Azurite's account and its well-known development key (published in Azurite's documentation). */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** The Blob service of Azurite, in memory, on a free loopback port. */
export interface LoopbackAzure {
  /** A connection string for the account, with `key` in place of the right one when given. */
  connectionString(key?: string): string;
  createContainer(container: string): Promise<void>;
  put(container: string, name: string, body: Uint8Array | string): Promise<void>;
  /** Sets the `Content-MD5` the blob's properties vouch for, whatever its bytes are. */
  setContentMd5(container: string, name: string, md5: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

function waitForPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      const port = /successfully listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen)?.[1];
      if (port !== undefined) resolve(Number(port));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => { reject(new Error(`azurite exited with ${String(code)} before listening: ${seen}`)); });
  });
}

/** Starts Azurite's Blob service (no telemetry, nothing on disk) as a child process. */
export async function startLoopbackAzure(): Promise<LoopbackAzure> {
  const main = join(dirname(createRequire(import.meta.url).resolve('azurite/package.json')), 'dist', 'src', 'blob', 'main.js');
  const child = spawn(process.execPath, [main, '--inMemoryPersistence', '--blobHost', '127.0.0.1', '--blobPort', '0', '--disableTelemetry', '--skipApiVersionCheck', '--loose'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await waitForPort(child);
  const connectionString = (key = AZURITE_KEY): string =>
    `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${key};BlobEndpoint=http://127.0.0.1:${port}/${AZURITE_ACCOUNT};`;
  const service = BlobServiceClient.fromConnectionString(connectionString());
  return {
    connectionString,
    createContainer: async (container) => {
      await service.getContainerClient(container).create();
    },
    put: async (container, name, body) => {
      const data = typeof body === 'string' ? Buffer.from(body) : body;
      await service.getContainerClient(container).getBlockBlobClient(name).upload(data, data.length);
    },
    setContentMd5: async (container, name, md5) => {
      await service.getContainerClient(container).getBlockBlobClient(name).setHTTPHeaders({ blobContentMD5: md5 });
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}
