import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

const CLIENT_PREFACE_BYTES = 24;
const FRAME_HEADER_BYTES = 9;
/** HTTP/2 frame types the tests count. */
export const FRAME_TYPE = { data: 0, headers: 1, rstStream: 3, ping: 6, goaway: 7 } as const;
const ACK = 0x1;

/** What crossed one direction of a tapped connection. */
export interface TappedDirection {
  /** Bytes, all frames included. */
  bytes: number;
  /** Payload bytes of DATA frames: the gRPC messages as sent, compressed or not. */
  dataBytes: number;
  /** Frames by type, PING acknowledgements not counted as pings. */
  readonly frames: Map<number, number>;
  /** PING frames with the ACK flag. */
  pingAcks: number;
}

/**
 * A TCP proxy in front of a plaintext HTTP/2 server that counts what crosses it, frame by frame, in each
 * direction: what a gRPC client library sends (compressed messages, keepalive pings) and what the server
 * answers, with both ends unchanged.
 */
export interface Http2Tap {
  /** `host:port` for the client. */
  readonly address: string;
  readonly fromClient: TappedDirection;
  readonly fromServer: TappedDirection;
  /** Connections made through the tap. */
  readonly connections: () => number;
  close(): Promise<void>;
}

function direction(): TappedDirection {
  return { bytes: 0, dataBytes: 0, frames: new Map(), pingAcks: 0 };
}

/** Counts the frames of one direction as its bytes arrive, whatever their chunking. */
function frameCounter(counted: TappedDirection, prefaceBytes: number): (chunk: Buffer) => void {
  let skip = prefaceBytes;
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    counted.bytes += chunk.length;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    if (skip > 0) {
      const taken = Math.min(skip, pending.length);
      skip -= taken;
      pending = pending.subarray(taken);
    }
    while (skip === 0 && pending.length >= FRAME_HEADER_BYTES) {
      const length = pending.readUIntBE(0, 3);
      if (pending.length < FRAME_HEADER_BYTES + length) break;
      const type = pending[3] ?? -1;
      const flags = pending[4] ?? 0;
      if (type === FRAME_TYPE.ping && (flags & ACK) !== 0) counted.pingAcks++;
      else counted.frames.set(type, (counted.frames.get(type) ?? 0) + 1);
      if (type === FRAME_TYPE.data) counted.dataBytes += length;
      pending = pending.subarray(FRAME_HEADER_BYTES + length);
    }
  };
}

/** Starts a tap on an ephemeral loopback port in front of `target` (`host:port`). */
export async function startHttp2Tap(target: string): Promise<Http2Tap> {
  const colon = target.lastIndexOf(':');
  const host = target.slice(0, colon);
  const port = Number(target.slice(colon + 1));
  const fromClient = direction();
  const fromServer = direction();
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((client) => {
    connections++;
    const upstream = connect(port, host);
    sockets.add(client).add(upstream);
    const countClient = frameCounter(fromClient, CLIENT_PREFACE_BYTES);
    const countServer = frameCounter(fromServer, 0);
    client.on('data', (chunk: Buffer) => {
      countClient(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      countServer(chunk);
      client.write(chunk);
    });
    const closeBoth = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', closeBoth).on('error', closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    fromClient,
    fromServer,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}
