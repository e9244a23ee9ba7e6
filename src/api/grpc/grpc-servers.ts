import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { SluiceError } from '../../sdk/errors/index.js';
import type { Logger } from '../../sdk/logging/logger.js';
import type { GrpcConfig } from '../../config/index.js';
import type { AuthProvider } from '../../sdk/auth/auth.js';
import type { ServingCore } from '../../serving/serving-core.js';
import { startGrpcApp, type GrpcApp } from './grpc-app.js';
import { GrpcInferenceModule } from './grpc-inference.module.js';
import { GrpcManagementModule } from './grpc-management.module.js';
import { PROTOS } from './grpc-protos.js';
import { PortHealth } from './health/health.controller.js';
import type { GrpcTls } from './transport/http2-grpc-server.js';

/** Guards in front of the gRPC ports, by the API they protect. */
export type GrpcGuards = Partial<Record<'inference' | 'management', AuthProvider>>;

/** The two gRPC ports. */
export interface GrpcServers {
  readonly inference: GrpcApp;
  readonly management: GrpcApp;
}

function readPem(file: string, key: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SluiceError('SLUICE_CONFIG_INVALID', `\`${key}\`: cannot read ${file} (${reason}); give a readable PEM file`, { key });
  }
}

/** Plaintext (undefined), or TLS from the configured PEM files (both or neither), checked to fit together. */
export function grpcTls(tls: GrpcConfig['tls']): GrpcTls | undefined {
  if (tls.certFile === '' && tls.keyFile === '') return undefined;
  if (tls.certFile === '' || tls.keyFile === '') {
    throw new SluiceError('SLUICE_CONFIG_INVALID', '`grpc.tls.certFile` and `grpc.tls.keyFile` go together: set both for TLS, or neither for plaintext');
  }
  const cert = readPem(tls.certFile, 'grpc.tls.certFile');
  const key = readPem(tls.keyFile, 'grpc.tls.keyFile');
  try {
    createSecureContext({ cert, key });
    return { cert, key };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SluiceError('SLUICE_CONFIG_INVALID', `\`grpc.tls\`: the certificate and key cannot be used (${reason}); give a PEM certificate and its private key`);
  }
}

/**
 * Opens the gRPC inference port (Open Inference Protocol, TorchServe inference) and the gRPC management
 * port (TorchServe management), each with health checking and server reflection, over `core`.
 */
export async function startGrpcServers(core: ServingCore, config: GrpcConfig, logger: Logger, guards: GrpcGuards = {}): Promise<GrpcServers> {
  const tls = grpcTls(config.tls);
  const common = {
    ...(tls ? { tls } : {}),
    maxReceiveMessageBytes: config.maxReceiveMessageBytes,
    maxSendMessageBytes: config.maxSendMessageBytes,
    drainTimeoutMs: core.config.shutdownTimeoutMs,
    telemetry: core.telemetry,
    metrics: core.metrics,
    logger,
  };
  const inferenceHealth = new PortHealth([PROTOS.oip.service, PROTOS.torchserveInference.service], () => core.isReady());
  const inference = await startGrpcApp({
    ...common,
    name: 'inference',
    ...config.inference,
    protos: ['oip', 'torchserveInference', 'health'],
    module: GrpcInferenceModule.forCore(core, inferenceHealth),
    health: inferenceHealth,
    ...(guards.inference ? { guard: guards.inference } : {}),
  });
  try {
    const managementHealth = new PortHealth([PROTOS.torchserveManagement.service], () => true);
    const management = await startGrpcApp({
      ...common,
      name: 'management',
      ...config.management,
      protos: ['torchserveManagement', 'health'],
      module: GrpcManagementModule.forCore(core, managementHealth),
      health: managementHealth,
      ...(guards.management ? { guard: guards.management } : {}),
    });
    return { inference, management };
  } catch (error) {
    await inference.close();
    throw error;
  }
}
