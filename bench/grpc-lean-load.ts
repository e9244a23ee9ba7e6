import { connect, type Socket } from 'node:net';
import type { GrpcLoadSpec } from './grpc-load.js';
import { grpcRequestHeaderBlock, grpcStatusIn } from './hpack-lite.js';
import { LatencySamples } from './latency-samples.js';
import type { LoadMeasurement } from './load.js';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const FRAME = { data: 0, headers: 1, rstStream: 3, settings: 4, ping: 6, goaway: 7, windowUpdate: 8, continuation: 9 } as const;
const FLAG = { endStream: 0x1, ack: 0x1, endHeaders: 0x4, padded: 0x8, priority: 0x20 } as const;
const SETTING = { headerTableSize: 1, enablePush: 2, initialWindowSize: 4, maxFrameSize: 5 } as const;
const MAX_WINDOW = 0x7fffffff;
/** The smallest SETTINGS_MAX_FRAME_SIZE a peer may announce: request bodies are cut to it. */
const MIN_MAX_FRAME = 16_384;

function frameHeader(length: number, type: number, flags: number, stream: number): Buffer {
  const header = Buffer.alloc(9);
  header.writeUIntBE(length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(stream, 5);
  return header;
}

function frame(type: number, flags: number, stream: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  return Buffer.concat([frameHeader(payload.length, type, flags, stream), payload]);
}

function settingsPayload(entries: readonly (readonly [number, number])[]): Buffer {
  const payload = Buffer.alloc(6 * entries.length);
  entries.forEach(([id, value], index) => {
    payload.writeUInt16BE(id, 6 * index);
    payload.writeUInt32BE(value, 6 * index + 2);
  });
  return payload;
}

function windowUpdate(stream: number, increment: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(increment, 0);
  return frame(FRAME.windowUpdate, 0, stream, payload);
}

/** A call in flight: the last `grpc-status` seen, and a header block arriving in several frames. */
interface Call {
  readonly done: (ok: boolean) => void;
  status?: string;
  fragments?: Buffer;
  blockEndsStream?: boolean;
}

/**
 * One HTTP/2 connection speaking just enough of the protocol to drive unary gRPC calls cheaply, as
 * autocannon drives HTTP/1.1: every request is a template written with its stream id, and of the answer
 * only the frames' headers and the `grpc-status` field are read. It tells the server to keep no HPACK
 * dynamic table and opens its own flow-control windows wide, so it never has to track either; it honours
 * the server's windows for what it sends.
 */
class LeanConnection {
  private readonly calls = new Map<number, Call>();
  private readonly waiting: ((ok: boolean) => void)[] = [];
  private readonly out: Buffer[] = [];
  private nextStream = 1;
  private sendWindow = 65_535;
  private streamWindow = 65_535;
  private received = 0;
  private buffered: Buffer = Buffer.alloc(0);
  private failed = false;
  private readonly template: Buffer;
  /** Where the stream id sits in {@link template}: the HEADERS frame, then each DATA frame. */
  private readonly idOffsets: number[] = [];
  private readonly bodyBytes: number;

  constructor(
    private readonly socket: Socket,
    path: string,
    authority: string,
    message: Uint8Array,
  ) {
    const block = grpcRequestHeaderBlock(path, authority);
    const body = Buffer.alloc(5 + message.byteLength);
    body.writeUInt32BE(message.byteLength, 1);
    body.set(message, 5);
    this.bodyBytes = body.length;
    const parts = [frameHeader(block.length, FRAME.headers, FLAG.endHeaders, 0), block];
    this.idOffsets.push(5);
    let offset = 9 + block.length;
    for (let at = 0; at < body.length || at === 0; at += MIN_MAX_FRAME) {
      const piece = body.subarray(at, at + MIN_MAX_FRAME);
      const last = at + MIN_MAX_FRAME >= body.length;
      parts.push(frameHeader(piece.length, FRAME.data, last ? FLAG.endStream : 0, 0), piece);
      this.idOffsets.push(offset + 5);
      offset += 9 + piece.length;
    }
    this.template = Buffer.concat(parts);
    socket.write(
      Buffer.concat([
        PREFACE,
        frame(
          FRAME.settings,
          0,
          0,
          settingsPayload([
            [SETTING.headerTableSize, 0],
            [SETTING.enablePush, 0],
            [SETTING.initialWindowSize, MAX_WINDOW],
          ]),
        ),
        windowUpdate(0, MAX_WINDOW - 65_535),
      ]),
    );
    socket.on('data', (chunk: Buffer) => {
      this.onData(chunk);
    });
    const fail = (): void => {
      this.failAll();
    };
    socket.on('close', fail);
    socket.on('error', fail);
  }

  /** Sends one call; `done` hears whether it ended with `grpc-status: 0`. */
  call(done: (ok: boolean) => void): void {
    if (this.failed) {
      done(false);
      return;
    }
    if (this.bodyBytes > this.streamWindow) throw new Error('the request is larger than the server’s initial stream window');
    if (this.bodyBytes > this.sendWindow) {
      this.waiting.push(done);
      return;
    }
    this.sendWindow -= this.bodyBytes;
    const stream = this.nextStream;
    this.nextStream += 2;
    const request = Buffer.from(this.template);
    for (const offset of this.idOffsets) request.writeUInt32BE(stream, offset);
    this.calls.set(stream, { done });
    this.out.push(request);
  }

  /** Writes what was queued since the last flush, in one write. */
  flush(): void {
    if (this.out.length === 0) return;
    this.socket.write(this.out.length === 1 ? (this.out[0] as Buffer) : Buffer.concat(this.out));
    this.out.length = 0;
  }

  close(): void {
    this.socket.end();
  }

  private onData(chunk: Buffer): void {
    let data = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    while (data.length >= 9) {
      const length = data.readUIntBE(0, 3);
      if (data.length < 9 + length) break;
      this.onFrame(data[3] ?? 0, data[4] ?? 0, data.readUInt32BE(5) & MAX_WINDOW, data.subarray(9, 9 + length));
      data = data.subarray(9 + length);
    }
    this.buffered = data;
    this.flush();
  }

  private onFrame(type: number, flags: number, stream: number, payload: Buffer): void {
    switch (type) {
      case FRAME.data:
        this.received += payload.length;
        if (this.received > 1 << 30) {
          this.out.push(windowUpdate(0, this.received));
          this.received = 0;
        }
        if ((flags & FLAG.endStream) !== 0) this.end(stream);
        return;
      case FRAME.headers:
      case FRAME.continuation:
        this.onHeaderBlock(type, flags, stream, payload);
        return;
      case FRAME.rstStream:
        this.end(stream, false);
        return;
      case FRAME.settings:
        if ((flags & FLAG.ack) === 0) this.onSettings(payload);
        return;
      case FRAME.ping:
        if ((flags & FLAG.ack) === 0) this.out.push(frame(FRAME.ping, FLAG.ack, 0, Buffer.from(payload)));
        return;
      case FRAME.goaway:
        this.failAll();
        return;
      case FRAME.windowUpdate:
        if (stream === 0) this.onConnectionWindow(payload.readUInt32BE(0) & MAX_WINDOW);
        return;
      default:
    }
  }

  private onHeaderBlock(type: number, flags: number, stream: number, payload: Buffer): void {
    const call = this.calls.get(stream);
    if (call === undefined) return;
    let fragment = payload;
    if (type === FRAME.headers) {
      const padded = (flags & FLAG.padded) !== 0;
      const start = (padded ? 1 : 0) + ((flags & FLAG.priority) !== 0 ? 5 : 0);
      fragment = payload.subarray(start, payload.length - (padded ? (payload[0] ?? 0) : 0));
      call.blockEndsStream = (flags & FLAG.endStream) !== 0;
      call.fragments = undefined;
    }
    const block = call.fragments ? Buffer.concat([call.fragments, fragment]) : fragment;
    if ((flags & FLAG.endHeaders) === 0) {
      call.fragments = block;
      return;
    }
    call.fragments = undefined;
    const status = grpcStatusIn(block);
    if (status !== undefined) call.status = status;
    if (call.blockEndsStream === true) this.end(stream);
  }

  private onSettings(payload: Buffer): void {
    for (let at = 0; at + 6 <= payload.length; at += 6) {
      const id = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (id === SETTING.initialWindowSize) this.streamWindow = value;
    }
    this.out.push(frame(FRAME.settings, FLAG.ack, 0));
  }

  private onConnectionWindow(increment: number): void {
    this.sendWindow += increment;
    while (this.waiting.length > 0 && this.sendWindow >= this.bodyBytes) this.call(this.waiting.shift() as (ok: boolean) => void);
  }

  private end(stream: number, ok?: boolean): void {
    const call = this.calls.get(stream);
    if (call === undefined) return;
    this.calls.delete(stream);
    call.done(ok ?? call.status === '0');
  }

  private failAll(): void {
    if (this.failed) return;
    this.failed = true;
    for (const call of this.calls.values()) call.done(false);
    this.calls.clear();
    for (const done of this.waiting.splice(0)) done(false);
  }
}

/**
 * Drives `spec` closed-loop over one HTTP/2 connection with {@link LeanConnection}: `concurrency` calls in
 * flight, each followed by the next as soon as it ends, until the time is up. A call counts as successful
 * when its trailers (or trailers-only response) say `grpc-status: 0`.
 */
export async function runGrpcLeanLoad(spec: GrpcLoadSpec): Promise<LoadMeasurement> {
  const colon = spec.address.lastIndexOf(':');
  const host = spec.address.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const socket = connect(Number(spec.address.slice(colon + 1)), host);
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const connection = new LeanConnection(socket, spec.path, spec.address, spec.message);
  const samples = new LatencySamples();
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  const endAt = started + spec.durationSeconds * 1000;
  const worker = (): Promise<void> =>
    new Promise((resolve) => {
      const next = (): void => {
        const sentAt = performance.now();
        if (sentAt >= endAt) {
          resolve();
          return;
        }
        connection.call((success) => {
          if (success) {
            ok++;
            samples.record(performance.now() - sentAt);
          } else failed++;
          next();
        });
      };
      next();
    });
  const workers = Array.from({ length: spec.concurrency }, worker);
  connection.flush();
  await Promise.all(workers);
  const durationSeconds = (performance.now() - started) / 1000;
  connection.close();
  return { durationSeconds, ok, requestsPerSecond: ok / durationSeconds, non2xx: failed, errors: 0, timeouts: 0, ...samples.summary() };
}
