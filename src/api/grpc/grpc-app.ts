import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ReflectionService } from '@grpc/reflection';
import type { PackageDefinition } from '@grpc/proto-loader';
import type { Logger } from '../../sdk/logging/logger.js';
import { setLongTimeout } from '../../timers/long-timeout.js';
import type { AuthProvider, GuardedApi } from '../../sdk/auth/auth.js';
import type { Telemetry } from '../../telemetry/index.js';
import type { ServingMetrics } from '../../telemetry/metrics/serving-metrics.js';
import { NestLoggerAdapter } from '../nest/nest-logger-adapter.js';
import { BoundGrpcServer } from './bound-grpc-server.js';
import type { GrpcTls } from './transport/http2-grpc-server.js';
import { GrpcAuthGuard } from './calls/grpc-auth.guard.js';
import { GrpcErrorFilter } from './errors/grpc-error.filter.js';
import { grpcCallScope } from './calls/grpc-call-scope.js';
import { grpcFailureCode } from './errors/grpc-failure-code.js';
import { GRPC_STATUS } from '../errors/error-mapping.js';
import type { GrpcStatusListener } from './transport/grpc-server-call.js';
import { loadProtos, PROTOS, type ProtoName } from './grpc-protos.js';
import type { PortHealth } from './health/health.controller.js';

/** A listening gRPC port. */
export interface GrpcApp {
  /** `host:port` as bound (the real port when 0 was asked for), as gRPC clients take it. */
  readonly address: string;
  readonly port: number;
  /**
   * Reports NOT_SERVING, refuses new calls and resolves once the calls in progress have ended, or once
   * `drainTimeoutMs` has passed, ending those left at once.
   */
  close(): Promise<void>;
  /** Ends every call at once (when a bounded drain ran out of time). */
  closeAllCalls(): void;
  /** Logs the `listening` line naming the address: the server does once start-up has loaded its models. */
  logListening(): void;
  /** Whether the listening socket alone keeps the process running (it does unless told otherwise). */
  keepProcessAlive(keep: boolean): void;
}

/** Where and how one gRPC port listens. */
export interface GrpcAppOptions {
  readonly name: GuardedApi;
  readonly host: string;
  readonly port: number;
  readonly protos: readonly ProtoName[];
  readonly module: DynamicModule;
  readonly health: PortHealth;
  /** TLS; plaintext without. */
  readonly tls?: GrpcTls;
  readonly maxReceiveMessageBytes: number;
  readonly maxSendMessageBytes: number;
  /**
   * How long {@link GrpcApp.close} lets calls finish (the server's `shutdownTimeoutMs`): the serving core's
   * drain does not see a call whose client stopped reading its answer, so the port bounds its own.
   */
  readonly drainTimeoutMs: number;
  /** Runs before every handler but the health checks; none means the port is open. */
  readonly guard?: AuthProvider;
  /** The server's telemetry: each call gets an RPC server span when tracing is on. */
  readonly telemetry: Telemetry;
  /** Where failed calls are counted (`sluice_errors_total`, transport `grpc`), from the moment their stream opens. */
  readonly metrics: ServingMetrics;
  readonly logger: Logger;
}

/** Counts each call that fails, or whose client goes away, under its Sluice code ({@link grpcFailureCode}). */
function countFailures(metrics: ServingMetrics): GrpcStatusListener {
  return (code, error) => {
    if (code !== GRPC_STATUS.OK) metrics.errorAnswered(grpcFailureCode(code, error), 'grpc');
  };
}

function addReflection(definition: PackageDefinition, server: unknown): void {
  new ReflectionService(definition).addToServer(server as Parameters<ReflectionService['addToServer']>[0]);
}

/**
 * Creates and starts one Nest microservice on the gRPC transport: the port's protos, server reflection,
 * errors through {@link GrpcErrorFilter}, the auth guard when given, and trace context from metadata.
 */
export async function startGrpcApp(options: GrpcAppOptions): Promise<GrpcApp> {
  const logger = options.logger.child({ port: `grpc-${options.name}` });
  const packageDefinition = loadProtos(options.protos);
  const strategy = new BoundGrpcServer(
    {
      host: options.host,
      port: options.port,
      maxReceiveMessageBytes: options.maxReceiveMessageBytes,
      maxSendMessageBytes: options.maxSendMessageBytes,
      ...(options.tls ? { tls: options.tls } : {}),
      scope: grpcCallScope(options.telemetry, logger, options.guard ? new GrpcAuthGuard(options.name, options.guard) : undefined),
      ended: countFailures(options.metrics),
    },
    {
      package: options.protos.map((name) => PROTOS[name].package),
      packageDefinition,
      onLoadPackageDefinition: addReflection,
    },
  );
  // Nest types its options as a class, but documents and reads them as a plain object.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
  const app = await NestFactory.createMicroservice(options.module, { strategy, logger: new NestLoggerAdapter(logger), abortOnError: false });
  app.useGlobalFilters(new GrpcErrorFilter(logger));
  await app.listen();
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const address = `${host}:${String(strategy.port)}`;
  return {
    logListening: () => {
      logger.info('listening', { address, tls: options.tls !== undefined });
    },
    address,
    port: strategy.port,
    close: async () => {
      options.health.stop();
      const server = strategy.server;
      if (server) {
        const cutOff = setLongTimeout(() => {
          server.forceShutdown();
        }, options.drainTimeoutMs);
        await new Promise<void>((resolve) => {
          server.tryShutdown(() => {
            resolve();
          });
        });
        cutOff.clear();
      }
      await app.close();
    },
    closeAllCalls: () => {
      strategy.server?.forceShutdown();
    },
    keepProcessAlive: (keep) => {
      strategy.server?.keepProcessAlive(keep);
    },
  };
}
