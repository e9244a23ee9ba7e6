import type { FastifyInstance } from 'fastify';

/**
 * Listens on an ephemeral loopback port, prints `ready <port>` (what the benchmark waits for), and
 * closes the app and exits on SIGTERM or SIGINT.
 */
export async function serveUntilSignalled(app: FastifyInstance): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(`ready ${typeof address === 'object' && address ? address.port : 0}\n`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
}
