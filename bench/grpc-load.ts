import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
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
  const once = (): Promise<void> =>
    new Promise((resolve) => {
      const sent = performance.now();
      const stream = session.request(headers, { endStream: false });
      let status: string | undefined;
      stream.on('trailers', (trailers: IncomingHttpHeaders) => {
        status = String(trailers['grpc-status']);
      });
      stream.on('response', (response: IncomingHttpHeaders) => {
        // A call refused before it ran answers with its status in the headers (a trailers-only response).
        if (response['grpc-status'] !== undefined) status = String(response['grpc-status']);
      });
      stream.on('data', () => undefined);
      stream.on('close', () => {
        if (status === '0') {
          ok++;
          samples.record(performance.now() - sent);
        } else failed++;
        resolve();
      });
      stream.end(body);
    });
  const worker = async (): Promise<void> => {
    while (performance.now() < endAt) await once();
  };
  await Promise.all(Array.from({ length: spec.concurrency }, worker));
  const durationSeconds = (performance.now() - started) / 1000;
  session.close();
  return { durationSeconds, ok, requestsPerSecond: ok / durationSeconds, non2xx: failed, errors: 0, timeouts: 0, ...samples.summary() };
}
