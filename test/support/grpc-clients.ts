import { join } from 'node:path';
import { credentials, loadPackageDefinition, Metadata, type CallOptions, type Client, type ClientOptions, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { packageRoot } from '../../src/package-files/package-root.js';

/** Proto files of the repository, loaded as a client of another project would: only proto/ and the loader. */
const PROTO_DIR = join(packageRoot(), 'proto');
const definition = loadSync(['open_inference_grpc.proto', 'torchserve/inference.proto', 'torchserve/management.proto', 'grpc/health/v1/health.proto'], {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  arrays: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
});
const packages = loadPackageDefinition(definition) as unknown as Record<string, unknown>;

type ClientConstructor = new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: ClientOptions) => Client;

function serviceAt(path: string): ClientConstructor {
  let node: unknown = packages;
  for (const part of path.split('.')) node = (node as Record<string, unknown>)[part];
  return node as ClientConstructor;
}

/** The services a test can call, by their full names. */
export const SERVICES = {
  oip: 'inference.GRPCInferenceService',
  torchserveInference: 'org.pytorch.serve.grpc.inference.InferenceAPIsService',
  torchserveManagement: 'org.pytorch.serve.grpc.management.ManagementAPIsService',
  health: 'grpc.health.v1.Health',
} as const;

/** A plaintext client of `service` at `address` (`host:port`). */
export function grpcClient(service: keyof typeof SERVICES, address: string, options: ClientOptions = {}): Client {
  const Service = serviceAt(SERVICES[service]);
  return new Service(address, credentials.createInsecure(), options);
}

type UnaryMethod = (request: unknown, metadata: Metadata, options: CallOptions, callback: (error: ServiceError | null, response?: unknown) => void) => unknown;

/** Calls a unary method; resolves with the response or rejects with the `ServiceError`. */
export function unary<T = Record<string, unknown>>(client: Client, method: string, request: unknown, options: CallOptions = {}, metadata = new Metadata()): Promise<T> {
  const call = (client as unknown as Record<string, UnaryMethod>)[method];
  if (call === undefined) throw new Error(`no method ${method}`);
  return new Promise<T>((resolve, reject) => {
    call.call(client, request, metadata, options, (error, response) => {
      if (error) reject(error);
      else resolve(response as T);
    });
  });
}

/** Starts a `ModelInfer` call and keeps its handle, so that a test can cancel it; `deadline` is the client's. */
export function startInfer(client: Client, request: unknown, deadline?: Date): { call: ClientUnaryCall; answer: Promise<unknown> } {
  let call: ClientUnaryCall | undefined;
  const answer = new Promise<unknown>((resolve, reject) => {
    const method = (client as unknown as Record<string, (...args: unknown[]) => ClientUnaryCall>)['ModelInfer'];
    call = method?.call(client, request, deadline ? { deadline } : {}, (error: ServiceError | null, response: unknown) => {
      if (error) reject(error);
      else resolve(response);
    });
  });
  if (call === undefined) throw new Error('no ModelInfer');
  return { call, answer };
}

/** The failure of a call: its status code, details and the `sluice-error-code` trailer. */
export async function callError(promise: Promise<unknown>): Promise<{ code: number; details: string; errorCode: string | undefined }> {
  try {
    await promise;
  } catch (error) {
    const e = error as ServiceError;
    const [errorCode] = e.metadata.get('sluice-error-code');
    return { code: e.code, details: e.details, errorCode: typeof errorCode === 'string' ? errorCode : undefined };
  }
  throw new Error('the call succeeded');
}

/** Metadata with the given entries. */
export function metadataOf(entries: Readonly<Record<string, string>>): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(entries)) metadata.set(key, value);
  return metadata;
}

/** Raw little-endian bytes of float32 values, as `raw_input_contents` carries them. */
export function float32Bytes(values: readonly number[]): Buffer {
  return Buffer.from(new Float32Array(values).buffer);
}

/** Float32 values back from raw bytes. */
export function float32Values(bytes: Uint8Array): number[] {
  const copy = new Uint8Array(bytes);
  return Array.from(new Float32Array(copy.buffer, 0, copy.byteLength / 4));
}
