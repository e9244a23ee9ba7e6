import { createServer, type Http2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { runGrpcLeanLoad } from '../../../bench/grpc-lean-load.js';
import { grpcRequestHeaderBlock, grpcStatusIn } from '../../../bench/hpack-lite.js';

/** A node:http2 server (nghttp2's HPACK encoder) answering every call as `answer` says. */
async function serve(answer: (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void): Promise<{ server: Http2Server; address: string }> {
  const server = createServer();
  server.on('stream', (stream, headers) => {
    stream.resume();
    stream.on('end', () => {
      answer(stream, headers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, address: `127.0.0.1:${String((server.address() as AddressInfo).port)}` };
}

function ok(stream: ServerHttp2Stream): void {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc+proto' }, { waitForTrailers: true });
  stream.once('wantTrailers', () => {
    stream.sendTrailers({ 'grpc-status': '0' });
  });
  stream.end(Buffer.from([0, 0, 0, 0, 1, 7]));
}

describe('runGrpcLeanLoad', () => {
  let server: Http2Server | undefined;
  afterEach(async () => {
    const closing = server;
    server = undefined;
    if (closing) {
      await new Promise<void>((resolve) => {
        closing.close(() => {
          resolve();
        });
      });
    }
  });

  it('sends gRPC requests a node:http2 server reads, and counts calls that end with grpc-status 0', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const started = await serve((stream, headers) => {
      seen.push(headers);
      ok(stream);
    });
    server = started.server;
    const result = await runGrpcLeanLoad({ address: started.address, path: '/pkg.Service/Method', message: Buffer.from('abc'), concurrency: 4, durationSeconds: 0.2 });
    expect(result.ok).toBeGreaterThan(0);
    expect(result.non2xx).toBe(0);
    expect(seen[0]).toMatchObject({ ':method': 'POST', ':path': '/pkg.Service/Method', ':authority': started.address, 'content-type': 'application/grpc', te: 'trailers' });
  });

  it('counts a trailers-only error as failed', async () => {
    const started = await serve((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc+proto', 'grpc-status': '5', 'grpc-message': 'no' }, { endStream: true });
    });
    server = started.server;
    const result = await runGrpcLeanLoad({ address: started.address, path: '/pkg.Service/Method', message: Buffer.from('abc'), concurrency: 2, durationSeconds: 0.1 });
    expect(result.ok).toBe(0);
    expect(result.non2xx).toBeGreaterThan(0);
  });
});

describe('hpack-lite', () => {
  it('finds grpc-status as a raw literal and as a Huffman-coded name', () => {
    const raw = Buffer.concat([Buffer.from([0x00, 11]), Buffer.from('grpc-status'), Buffer.from([1]), Buffer.from('0')]);
    // nghttp2 sends the name Huffman-coded (8 bytes) after a dynamic table size update to 0.
    const huffman = Buffer.from('20' + '00889acac8b21234da8f' + '0132', 'hex');
    expect(grpcStatusIn(raw)).toBe('0');
    expect(grpcStatusIn(huffman)).toBe('2');
    expect(grpcStatusIn(Buffer.from([0x88]))).toBeUndefined(); // `:status: 200` only
  });

  it('encodes the request block with static-table names and plain literals', () => {
    expect(grpcRequestHeaderBlock('/a', 'h').toString('hex')).toBe('8386' + '04022f61' + '010168' + '0f1010' + Buffer.from('application/grpc').toString('hex') + '00027465' + '08' + Buffer.from('trailers').toString('hex'));
  });
});
