import { expect } from '@jest/globals';
import { makeTempDir } from './temp-dir.js';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

/**
 * Starts a second server, in a folder of its own, with `options` and `running`'s gRPC management port (the
 * last port a start opens, so everything before it has run), and expects the start to fail to listen.
 */
export async function expectStartOnTakenPortToFail(running: TestServer, options: TestServerOptions): Promise<void> {
  const takenPort = Number(running.grpcManagement.slice(running.grpcManagement.lastIndexOf(':') + 1));
  const other = await makeTempDir('sluice-second-');
  try {
    await expect(
      startTestServer({
        ...options,
        dir: other.dir,
        config: {
          ...options.config,
          grpc: { inference: { host: '127.0.0.1', port: 0 }, management: { host: '127.0.0.1', port: takenPort } },
        },
      }),
    ).rejects.toMatchObject({ code: 'SLUICE_CONFIG_INVALID', details: { key: 'grpc.management.port' }, cause: { code: 'EADDRINUSE' } });
  } finally {
    await other.cleanup();
  }
}
