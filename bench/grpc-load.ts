import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { credentials, loadPackageDefinition, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadProtos } from '../src/api/grpc/grpc-protos.js';
import { LatencySamples } from './latency-samples.js';
import type { LoadMeasurement } from './load.js';

/** One gRPC load run: a unary method called with the same request, `concurrency` calls in flight. */
export interface GrpcLoadSpec {
  /** `host:port`. */
  readonly address: string;
  /** `/package.Service/Method`. */
  readonly path: string;
  /** The request message, already serialized. */
  readonly message: Uint8Array;
  readonly concurrency: number;
  readonly durationSeconds: number;
}

type Unary = (request: unknown, callback: (error: ServiceError | null) => void) => unknown;

/** A client of `inference.GRPCInferenceService` built from Sluice's protos, as a Triton or KServe client would be. */
export function oipGrpcClient(address: string): Client {
  const root = loadPackageDefinition(loadProtos(['oip'])) as unknown as { inference: { GRPCInferenceService: new (a: string, c: unknown) => Client } };
  return new root.inference.GRPCInferenceService(address, credentials.createInsecure());
}

/** The serialized `ModelInferRequest` for `request` (plain object, proto field names). */
export function serializeModelInferRequest(request: unknown): Uint8Array {
  const root = loadPackageDefinition(loadProtos(['oip'])) as unknown as {
    inference: { GRPCInferenceService: { service: { ModelInfer: { requestSerialize(value: unknown): Buffer } } } };
  };
  return root.inference.GRPCInferenceService.service.ModelInfer.requestSerialize(request);
}

/** Calls `method` once through a real gRPC client and throws unless it succeeds: a benchmark of errors is no benchmark. */
export async function assertGrpcServes(client: Client, method: string, request: unknown): Promise<void> {
  const call = (client as unknown as Record<string, Unary>)[method];
  await new Promise<void>((resolve, reject) => {
    call?.call(client, request, (error) => {
      if (error) reject(new Error(`${method} failed: ${error.message}`));
      else resolve();
    });
  });
}

/** One length-prefixed gRPC message frame (uncompressed). */
function frame(message: Uint8Array): Buffer {
  const framed = Buffer.alloc(5 + message.byteLength);
  framed.writeUInt32BE(message.byteLength, 1);
  framed.set(message, 5);
  return framed;
}

/**
 * Drives `spec` closed-loop over one HTTP/2 connection (gRPC clients multiplex their calls on one): each
 * of `concurrency` workers sends its next call when the last one answered, until the time is up. Like
 * autocannon for the HTTP runs, the generator sends a request prepared once and does not decode answers,
 * so that it costs the machine little; a call counts as successful when its trailers say `grpc-status: 0`.
 */
export async function runGrpcLoad(spec: GrpcLoadSpec): Promise<LoadMeasurement> {
  const session: ClientHttp2Session = connect(`http://${spec.address}`);
  await new Promise<void>((resolve, reject) => {
    session.once('connect', () => {
      resolve();
    });
    session.once('error', reject);
  });
  const body = frame(spec.message);
  const headers = {
    [constants.HTTP2_HEADER_METHOD]: 'POST',
    [constants.HTTP2_HEADER_PATH]: spec.path,
    [constants.HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc',
    te: 'trailers',
  };
  const samples = new LatencySamples();
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  const endAt = started + spec.durationSeconds * 1000;
  // One listener function for every stream, and the state on the stream itself: a closure and a promise
  // per call would cost the generator more than the calls cost the server.
  type Call = ClientHttp2Stream & { grpcStatus?: string; sentAt: number; done: () => void };
  function onHeaders(this: Call, headers: IncomingHttpHeaders): void {
    // The response headers of a call refused before it ran carry its status (a trailers-only response).
    const value = headers['grpc-status'];
    if (value !== undefined) this.grpcStatus = String(value);
  }
  function onClose(this: Call): void {
    if (this.grpcStatus === '0') {
      ok++;
      samples.record(performance.now() - this.sentAt);
    } else failed++;
    this.done();
  }
  const once = (done: () => void): void => {
    const stream = session.request(headers, { endStream: false }) as Call;
    stream.sentAt = performance.now();
    stream.done = done;
    stream.on('response', onHeaders);
    stream.on('trailers', onHeaders);
    stream.on('close', onClose);
    stream.resume();
    stream.end(body);
  };
  const worker = (): Promise<void> =>
    new Promise((resolve) => {
      const next = (): void => {
        if (performance.now() < endAt) once(next);
        else resolve();
      };
      next();
    });
  await Promise.all(Array.from({ length: spec.concurrency }, worker));
  const durationSeconds = (performance.now() - started) / 1000;
  session.close();
  return { durationSeconds, ok, requestsPerSecond: ok / durationSeconds, non2xx: failed, errors: 0, timeouts: 0, ...samples.summary() };
}
