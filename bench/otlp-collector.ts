/**
 * A stand-in OTLP/HTTP collector for `bench:tracing`, run as a process of its own so that receiving the
 * spans does not take turns from the load generator's event loop (a real collector runs elsewhere too):
 * answers every export as a collector that took all of it does (200, an empty protobuf response) and
 * counts requests and bytes. Prints `ready <port>` once listening, and
 * `{"requests":…,"bytes":…}` when told to stop (SIGTERM); `GET /counts` answers the same counts so far.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let requests = 0;
let bytes = 0;
const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/counts') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests, bytes }));
    return;
  }
  request.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  request.on('end', () => {
    requests += 1;
    // What a collector answers a protobuf export that it took whole: an empty ExportTraceServiceResponse.
    response.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': '0' }).end();
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => {
  process.stdout.write(JSON.stringify({ requests, bytes }) + '\n', () => process.exit(0));
});
