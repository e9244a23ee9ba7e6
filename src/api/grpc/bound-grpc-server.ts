import { ServerGrpc, type GrpcOptions } from '@nestjs/microservices';
import { Http2GrpcServer, type Http2GrpcServerOptions } from './transport/http2-grpc-server.js';

/** Where and how the gRPC server binds. */
export interface GrpcBinding extends Http2GrpcServerOptions {
  readonly host: string;
  readonly port: number;
}

/**
 * Nest's gRPC transport on Sluice's own HTTP/2 gRPC server. Nest's `ServerGrpc.createClient` builds a
 * grpc-js `Server` and binds it with `bindAsync`, dropping the port it reports; this strategy creates an
 * {@link Http2GrpcServer} instead (cheaper per call, with the same `addService` / `tryShutdown` /
 * `forceShutdown` that Nest and `@grpc/reflection` call), binds it, and keeps the port, so that port 0
 * (tests, `sluice start` on a free port) can be learnt. Everything else (services, streaming, filters,
 * interceptors) is Nest's own.
 */
export class BoundGrpcServer extends ServerGrpc {
  private bound: { readonly server: Http2GrpcServer; readonly port: number } | undefined;

  constructor(
    private readonly binding: GrpcBinding,
    options: GrpcOptions['options'],
  ) {
    super(options);
  }

  /** The port the server is bound to; throws before `listen` bound it. */
  get port(): number {
    if (this.bound === undefined) throw new Error('the gRPC server is not bound yet');
    return this.bound.port;
  }

  /** The server, for graceful and forced shutdown. */
  get server(): Http2GrpcServer | undefined {
    return this.bound?.server;
  }

  override async createClient(): Promise<Http2GrpcServer> {
    const server = new Http2GrpcServer(this.binding);
    const port = await server.listen(this.binding.host, this.binding.port);
    this.bound = { server, port };
    return server;
  }
}
