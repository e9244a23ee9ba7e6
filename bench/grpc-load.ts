import { credentials, loadPackageDefinition, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadProtos } from '../src/api/grpc/grpc-protos.js';

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
