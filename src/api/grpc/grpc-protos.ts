import { join } from 'node:path';
import { loadSync, type Options, type PackageDefinition } from '@grpc/proto-loader';
import { packageRoot } from '../../package-files/package-root.js';

/** The directory of Sluice's `.proto` files (also the import root between them). */
export const PROTO_DIR = join(packageRoot(), 'proto');

/** Each proto file, relative to {@link PROTO_DIR}, with the package and the service it declares. */
export const PROTOS = {
  oip: { file: 'open_inference_grpc.proto', package: 'inference', service: 'inference.GRPCInferenceService' },
  torchserveInference: {
    file: 'torchserve/inference.proto',
    package: 'org.pytorch.serve.grpc.inference',
    service: 'org.pytorch.serve.grpc.inference.InferenceAPIsService',
  },
  torchserveManagement: {
    file: 'torchserve/management.proto',
    package: 'org.pytorch.serve.grpc.management',
    service: 'org.pytorch.serve.grpc.management.ManagementAPIsService',
  },
  health: { file: 'grpc/health/v1/health.proto', package: 'grpc.health.v1', service: 'grpc.health.v1.Health' },
} as const;

/** One of {@link PROTOS}. */
export type ProtoName = keyof typeof PROTOS;

/**
 * How messages look in JavaScript: proto field names as written (`model_name`), 64-bit integers as
 * decimal strings (exact; shapes are converted where read), enums as names, absent scalars as their
 * defaults and absent lists and maps as empty ones, oneofs naming the field that is set.
 */
export const PROTO_LOADER_OPTIONS: Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  arrays: true,
  objects: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

/** Loads the package definition of the given protos (with their imports). */
export function loadProtos(names: readonly ProtoName[]): PackageDefinition {
  return loadSync(
    names.map((name) => PROTOS[name].file),
    PROTO_LOADER_OPTIONS,
  );
}
