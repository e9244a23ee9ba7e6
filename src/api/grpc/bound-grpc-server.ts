import { Server, type ChannelOptions, type ServerCredentials } from '@grpc/grpc-js';
import { ServerGrpc, type GrpcOptions } from '@nestjs/microservices';

/** Where and how the gRPC server binds. */
export interface GrpcBinding {
  readonly host: string;
  readonly port: number;
  readonly credentials: ServerCredentials;
  readonly channelOptions: ChannelOptions;
}

/**
 * Nest's gRPC transport that remembers the port it bound. Nest's `ServerGrpc.createClient` binds with
 * `bindAsync` and drops the port the callback reports, so with port 0 (tests, `sluice start` on a free
 * port) nobody could learn where the server listens. This strategy creates and binds the grpc-js server
 * itself, keeps the port, and hands the server to Nest exactly as the base class would; everything else
 * (services, streaming, guards, filters) is Nest's own.
 */
export class BoundGrpcServer extends ServerGrpc {
  private bound: { readonly server: Server; readonly port: number } | undefined;

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

  /** The grpc-js server, for graceful and forced shutdown. */
  get server(): Server | undefined {
    return this.bound?.server;
  }

  override async createClient(): Promise<Server> {
    const server = new Server(this.binding.channelOptions);
    const host = this.binding.host.includes(':') ? `[${this.binding.host}]` : this.binding.host;
    const port = await new Promise<number>((resolve, reject) => {
      server.bindAsync(`${host}:${String(this.binding.port)}`, this.binding.credentials, (error, boundPort) => {
        if (error) reject(error);
        else resolve(boundPort);
      });
    });
    this.bound = { server, port };
    return server;
  }
}
