import { ServerGrpc, type BaseRpcContext, type GrpcOptions } from '@nestjs/microservices';
import { finalize, isObservable } from 'rxjs';
import { Http2GrpcServer, type Http2GrpcServerOptions } from './transport/http2-grpc-server.js';

/** What Nest's message handler of a unary method is called with and resolves to. */
type NestUnaryHandler = (request: unknown, metadata: unknown, call: unknown) => Promise<unknown>;
type UnaryCallback = (error: unknown, value?: unknown) => void;

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

  /**
   * Nest's unary method without its Observable plumbing for handlers that answer with a value (every
   * Sluice unary handler): Nest wraps the value in an Observable, pipes and subscribes to it on every
   * call, which costs more than the rest of its pipeline. The order is Nest's: the processing end hook,
   * then the callback. An Observable (the error filter's answer, a handler returning one) is subscribed
   * to as Nest does.
   */
  // Nest types service methods as `Function`.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  override createUnaryServiceMethod(methodHandler: Function): Function {
    const handler = methodHandler as NestUnaryHandler;
    // Typed `void`, it returns the hooks' promise: the transport fails the call if that rejects.
    const withHooks = this.runWithProcessingHooks.bind(this) as unknown as (context: BaseRpcContext, fn: (runEndHook: () => void) => Promise<void>, endHookContext: BaseRpcContext) => Promise<void>;
    return (call: { request: unknown; metadata: unknown }, callback: UnaryCallback): Promise<void> =>
      withHooks(
        { ...call, operationId: methodHandler.name } as unknown as BaseRpcContext,
        async (runEndHook) => {
          const result = await handler(call.request, call.metadata, call);
          if (isObservable(result)) {
            result.pipe(finalize(runEndHook)).subscribe({
              next: (data) => {
                Promise.resolve(data).then(
                  (value) => {
                    callback(null, value);
                  },
                  (error: unknown) => {
                    callback(error);
                  },
                );
              },
              error: (error: unknown) => {
                callback(error);
              },
            });
            return;
          }
          runEndHook();
          callback(null, result);
        },
        call.request as BaseRpcContext,
      );
  }

  override async createClient(): Promise<Http2GrpcServer> {
    const server = new Http2GrpcServer(this.binding);
    const port = await server.listen(this.binding.host, this.binding.port);
    this.bound = { server, port };
    return server;
  }
}
