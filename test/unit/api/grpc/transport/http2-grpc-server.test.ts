import { connect, type IncomingHttpHeaders } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Metadata, credentials, makeGenericClientConstructor, status, type Client, type ServiceDefinition, type ServiceError } from '@grpc/grpc-js';
import type { GrpcCallback, GrpcServerCall } from '../../../../../src/api/grpc/transport/grpc-server-call.js';
import { frameMessage } from '../../../../../src/api/grpc/transport/grpc-message-decoder.js';
import { Http2GrpcServer } from '../../../../../src/api/grpc/transport/http2-grpc-server.js';

/** Messages are raw bytes: the test needs no protos. */
const bytes = { serialize: (value: Buffer): Buffer => value, deserialize: (value: Buffer): Buffer => value };
function method(name: string, requestStream: boolean, responseStream: boolean) {
  return {
    path: `/test.Echo/${name}`,
    requestStream,
    responseStream,
    requestSerialize: bytes.serialize,
    requestDeserialize: bytes.deserialize,
    responseSerialize: bytes.serialize,
    responseDeserialize: bytes.deserialize,
  };
}
/** How many responses the `Measured` method serialized. */
let measuredSerializations = 0;
const SERVICE = {
  Unary: method('Unary', false, false),
  Hang: method('Hang', false, false),
  Fail: method('Fail', false, false),
  Big: method('Big', false, false),
  Split: method('Split', false, true),
  Chat: method('Chat', true, true),
  Later: method('Later', true, true),
  Measured: {
    ...method('Measured', false, true),
    responseSerialize: (value: Buffer): Buffer => {
      measuredSerializations++;
      return value;
    },
  },
  Missing: method('Missing', false, false),
} as unknown as ServiceDefinition;

type Unary = (request: Buffer, metadata: Metadata, options: { deadline?: number }, callback: (error: ServiceError | null, response?: Buffer) => void) => { cancel(): void };

describe('Http2GrpcServer with a grpc-js client', () => {
  const server = new Http2GrpcServer({ maxReceiveMessageBytes: 64, maxSendMessageBytes: 64 });
  const hanging: GrpcServerCall[] = [];
  let address = '';
  let client: Client;
  const call = (name: string, request: Buffer, metadata = new Metadata(), deadline?: number): Promise<{ response: Buffer; trailers: Metadata }> =>
    new Promise((resolve, reject) => {
      let answer: Buffer | undefined;
      const unary = (client as unknown as Record<string, Unary>)[name];
      const pending = unary?.call(client, request, metadata, deadline === undefined ? {} : { deadline }, (error, response) => {
        if (error) reject(error);
        else answer = response ?? Buffer.alloc(0);
      }) as unknown as { on(event: 'status', listener: (s: { metadata: Metadata }) => void): void };
      // The status (with the trailers) comes after the callback.
      pending.on('status', (s) => {
        if (answer !== undefined) resolve({ response: answer, trailers: s.metadata });
      });
    });
  const failure = (promise: Promise<unknown>): Promise<ServiceError> => promise.then(() => Promise.reject(new Error('the call succeeded')), (error: unknown) => error as ServiceError);

  beforeAll(async () => {
    server.addService(SERVICE, {
      // Answers the request with the `tag-bin` metadata appended, and sends it back as a trailer.
      Unary: (c: GrpcServerCall, callback: GrpcCallback) => {
        const trailer = new Metadata();
        const [tag] = c.metadata.get('tag-bin');
        if (Buffer.isBuffer(tag)) trailer.set('echo-bin', tag);
        callback(null, Buffer.concat([c.request as Buffer, Buffer.isBuffer(tag) ? tag : Buffer.alloc(0)]), trailer);
      },
      Hang: (c: GrpcServerCall) => {
        hanging.push(c);
      },
      Fail: (_c: GrpcServerCall, callback: GrpcCallback) => {
        const trailer = new Metadata();
        trailer.set('sluice-error-code', 'SLUICE_MODEL_NOT_FOUND');
        callback({ code: status.NOT_FOUND, details: 'no model “ß” (100%)', metadata: trailer });
      },
      Big: (_c: GrpcServerCall, callback: GrpcCallback) => {
        callback(null, Buffer.alloc(65));
      },
      Split: (c: GrpcServerCall) => {
        for (const byte of c.request as Buffer) c.write(Buffer.from([byte]));
        c.end();
      },
      Chat: (c: GrpcServerCall) => {
        c.on('data', (message: Buffer) => c.write(Buffer.from(message.toString().toUpperCase())));
        c.on('end', () => {
          c.end();
        });
      },
      // As Chat, but each answer comes later (as an inference's would), and the call ends once all are out.
      Later: (c: GrpcServerCall) => {
        let pending = 0;
        let ended = false;
        c.on('data', (message: Buffer) => {
          pending++;
          setImmediate(() => {
            c.write(Buffer.from(message.toString().toUpperCase()));
            if (--pending === 0 && ended) c.end();
          });
        });
        c.on('end', () => {
          ended = true;
          if (pending === 0) c.end();
        });
      },
      // Measures a message that fits and one over the limit, writes the one that fits, then the sizes.
      Measured: (c: GrpcServerCall) => {
        const fits = Buffer.from('ok');
        const sizes = [c.serializedSize(fits), c.serializedSize(Buffer.alloc(65)), c.maxSendMessageBytes];
        c.write(fits);
        c.write(Buffer.from(sizes.join(',')));
        c.end();
      },
    });
    const port = await server.listen('127.0.0.1', 0);
    address = `127.0.0.1:${String(port)}`;
    client = new (makeGenericClientConstructor(SERVICE, 'Echo'))(address, credentials.createInsecure());
  });
  afterAll(async () => {
    client.close();
    server.forceShutdown();
    await new Promise<void>((resolve) => {
      server.tryShutdown(() => {
        resolve();
      });
    });
  });

  it('answers a unary call, with binary metadata both ways', async () => {
    const metadata = new Metadata();
    metadata.set('tag-bin', Buffer.from([0, 255, 10]));
    const { response, trailers } = await call('Unary', Buffer.from('ab'), metadata);
    expect([...response]).toEqual([0x61, 0x62, 0, 255, 10]);
    expect(trailers.get('echo-bin')).toEqual([Buffer.from([0, 255, 10])]);
  });

  it('sends an error with its code, its message percent-encoded and its trailing metadata', async () => {
    const error = await failure(call('Fail', Buffer.from('x')));
    expect(error.code).toBe(status.NOT_FOUND);
    expect(error.details).toBe('no model “ß” (100%)');
    expect(error.metadata.get('sluice-error-code')).toEqual(['SLUICE_MODEL_NOT_FOUND']);
  });

  it('answers UNIMPLEMENTED for a method without a handler', async () => {
    expect((await failure(call('Missing', Buffer.from('x')))).code).toBe(status.UNIMPLEMENTED);
  });

  it('refuses a request over the receive limit with RESOURCE_EXHAUSTED', async () => {
    expect((await failure(call('Unary', Buffer.alloc(65)))).code).toBe(status.RESOURCE_EXHAUSTED);
  });

  it('refuses a response over the send limit with RESOURCE_EXHAUSTED', async () => {
    expect((await failure(call('Big', Buffer.from('x')))).code).toBe(status.RESOURCE_EXHAUSTED);
  });

  it('gives the handler the client’s deadline, and tells it the call is cancelled once it passes', async () => {
    const before = hanging.length;
    const deadline = Date.now() + 100;
    const error = await failure(call('Hang', Buffer.from('x'), new Metadata(), deadline));
    expect(error.code).toBe(status.DEADLINE_EXCEEDED);
    const handled = hanging[before] as GrpcServerCall;
    if (!handled.cancelled) await new Promise((resolve) => handled.once('cancelled', resolve));
    expect(handled.getDeadline()).toBeGreaterThan(deadline - 1000);
    expect(handled.getDeadline()).toBeLessThanOrEqual(deadline + 1000);
  });

  it('tells the handler when the client cancels (resets the stream)', async () => {
    const before = hanging.length;
    const unary = (client as unknown as Record<string, Unary>)['Hang'];
    const pending = unary?.call(client, Buffer.from('x'), new Metadata(), {}, () => undefined);
    while (hanging.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    const handled = hanging[before] as GrpcServerCall;
    const cancelled = new Promise<void>((resolve) => handled.once('cancelled', () => { resolve(); }));
    pending?.cancel();
    await cancelled;
    expect(handled.cancelled).toBe(true);
  });

  it('streams a server-streaming response message by message', async () => {
    const stream = (client as unknown as Record<string, (request: Buffer) => NodeJS.EventEmitter>)['Split']?.(Buffer.from('abc'));
    const received: string[] = [];
    await new Promise<void>((resolve, reject) => {
      stream?.on('data', (message: Buffer) => received.push(message.toString()));
      stream?.on('end', resolve);
      stream?.on('error', reject);
    });
    expect(received).toEqual(['a', 'b', 'c']);
  });

  it('reads and answers a bidirectional stream', async () => {
    const stream = (client as unknown as Record<string, () => NodeJS.EventEmitter & { write(m: Buffer): void; end(): void }>)['Chat']?.();
    const received: string[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      stream?.on('data', (message: Buffer) => received.push(message.toString()));
      stream?.on('end', resolve);
      stream?.on('error', reject);
    });
    stream?.write(Buffer.from('hi'));
    stream?.write(Buffer.from('there'));
    stream?.end();
    await ended;
    expect(received).toEqual(['HI', 'THERE']);
  });

  it('sends the bytes serializedSize measured, without serializing the message again', async () => {
    const before = measuredSerializations;
    const stream = (client as unknown as Record<string, (request: Buffer) => NodeJS.EventEmitter>)['Measured']?.(Buffer.from('x'));
    const received: string[] = [];
    await new Promise<void>((resolve, reject) => {
      stream?.on('data', (message: Buffer) => received.push(message.toString()));
      stream?.on('end', resolve);
      stream?.on('error', reject);
    });
    expect(received).toEqual(['ok', '2,65,64']);
    expect(measuredSerializations - before).toBe(3); // the two measured, and the sizes; not `ok` twice
  });

  describe('on the wire', () => {
    /** One raw HTTP/2 request; resolves with the response headers, the body bytes and the trailers. */
    const raw = (headers: Record<string, string>, body: Buffer): Promise<{ headers: IncomingHttpHeaders; body: Buffer; trailers: IncomingHttpHeaders | undefined }> =>
      new Promise((resolve, reject) => {
        const session = connect(`http://${address}`);
        const stream = session.request({ ':method': 'POST', ':path': '/test.Echo/Unary', 'content-type': 'application/grpc', te: 'trailers', ...headers });
        let response: IncomingHttpHeaders = {};
        let trailers: IncomingHttpHeaders | undefined;
        const chunks: Buffer[] = [];
        stream.on('response', (h) => (response = h));
        stream.on('trailers', (t: IncomingHttpHeaders) => {
          trailers = t;
        });
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('close', () => {
          session.close();
          resolve({ headers: response, body: Buffer.concat(chunks), trailers });
        });
        stream.end(body);
      });

    it('answers an error before any message as trailers-only: the status in the only headers', async () => {
      const answer = await raw({ ':path': '/test.Echo/Fail' }, frameMessage(Buffer.from('x')));
      expect(answer.headers).toMatchObject({ ':status': 200, 'content-type': 'application/grpc+proto', 'grpc-status': '5', 'grpc-message': 'no model %E2%80%9C%C3%9F%E2%80%9D (100%25)' });
      expect(answer.body.length).toBe(0);
      expect(answer.trailers).toBeUndefined();
    });

    it('accepts a request whose message arrives in several DATA frames, and answers with grpc-status 0 in the trailers', async () => {
      const answer = await new Promise<{ body: Buffer; trailers: IncomingHttpHeaders }>((resolve, reject) => {
        const session = connect(`http://${address}`);
        const stream = session.request({ ':method': 'POST', ':path': '/test.Echo/Unary', 'content-type': 'application/grpc', te: 'trailers' });
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('trailers', (trailers: IncomingHttpHeaders) => {
          stream.on('close', () => {
            session.close();
            resolve({ body: Buffer.concat(chunks), trailers });
          });
        });
        stream.on('error', reject);
        const framed = frameMessage(Buffer.from('split'));
        stream.write(framed.subarray(0, 3));
        setTimeout(() => stream.end(framed.subarray(3)), 20);
      });
      expect(answer.body).toEqual(frameMessage(Buffer.from('split')));
      expect(answer.trailers['grpc-status']).toBe('0');
    });

    it('ends a call whose grpc-timeout passes with DEADLINE_EXCEEDED itself', async () => {
      const answer = await raw({ ':path': '/test.Echo/Hang', 'grpc-timeout': '50m' }, frameMessage(Buffer.from('x')));
      expect(answer.headers).toMatchObject({ 'grpc-status': String(status.DEADLINE_EXCEEDED), 'grpc-message': 'Deadline exceeded' });
    });

    it('answers the messages of a stream read before one over the limit, then ends the call with RESOURCE_EXHAUSTED', async () => {
      const answer = await raw({ ':path': '/test.Echo/Later' }, Buffer.concat([frameMessage(Buffer.from('a')), frameMessage(Buffer.from('b')), frameMessage(Buffer.alloc(65))]));
      expect(answer.body).toEqual(Buffer.concat([frameMessage(Buffer.from('A')), frameMessage(Buffer.from('B'))]));
      expect(answer.trailers?.['grpc-status']).toBe(String(status.RESOURCE_EXHAUSTED));
    });

    it('answers the messages of a stream read before it ended inside a message, then ends the call with INTERNAL', async () => {
      const answer = await raw({ ':path': '/test.Echo/Later' }, Buffer.concat([frameMessage(Buffer.from('a')), frameMessage(Buffer.from('bc')).subarray(0, 6)]));
      expect(answer.body).toEqual(frameMessage(Buffer.from('A')));
      expect([answer.trailers?.['grpc-status'], answer.trailers?.['grpc-message']]).toEqual([String(status.INTERNAL), 'the request ended inside a message (a truncated length-prefixed message)']);
    });

    it('answers DEADLINE_EXCEEDED at once to a zero grpc-timeout, without running the call', async () => {
      const answer = await raw({ 'grpc-timeout': '0n' }, frameMessage(Buffer.from('x')));
      expect({ status: answer.headers['grpc-status'], body: answer.body.length }).toEqual({ status: String(status.DEADLINE_EXCEEDED), body: 0 });
    });

    it('answers INTERNAL for a grpc-timeout that does not parse', async () => {
      const answer = await raw({ 'grpc-timeout': 'soon' }, frameMessage(Buffer.from('x')));
      expect(answer.headers['grpc-status']).toBe(String(status.INTERNAL));
    });

    it('answers HTTP 415 to a request that is not gRPC', async () => {
      const answer = await raw({ 'content-type': 'application/json' }, Buffer.from('{}'));
      expect(answer.headers[':status']).toBe(415);
    });

    it('answers HTTP 415 to gRPC-Web and to message encodings other than protobuf', async () => {
      const statuses: unknown[] = [];
      for (const type of ['application/grpc-web', 'application/grpc+json', 'application/grpcx']) {
        const answer = await raw({ 'content-type': type }, frameMessage(Buffer.from('x')));
        statuses.push(answer.headers[':status']);
      }
      expect(statuses).toEqual([415, 415, 415]);
    });

    it('serves application/grpc+proto and application/grpc with parameters', async () => {
      const statuses: unknown[] = [];
      for (const type of ['application/grpc+proto', 'application/grpc; charset=utf-8']) {
        const answer = await raw({ 'content-type': type }, frameMessage(Buffer.from('x')));
        statuses.push(answer.trailers?.['grpc-status']);
      }
      expect(statuses).toEqual(['0', '0']);
    });
  });
});

describe('Http2GrpcServer shutdown', () => {
  it('lets a call in progress finish on tryShutdown, and cancels it on forceShutdown', async () => {
    const server = new Http2GrpcServer({ maxReceiveMessageBytes: 64, maxSendMessageBytes: 64 });
    const calls: { call: GrpcServerCall; callback: GrpcCallback }[] = [];
    server.addService({ Hang: method('Hang', false, false) }, {
      Hang: (call: GrpcServerCall, callback: GrpcCallback) => calls.push({ call, callback }),
    });
    const address = `127.0.0.1:${String(await server.listen('127.0.0.1', 0))}`;
    const client = new (makeGenericClientConstructor({ Hang: method('Hang', false, false) }, 'Echo'))(address, credentials.createInsecure());
    const hang = (): Promise<Buffer> =>
      new Promise((resolve, reject) => {
        (client as unknown as Record<string, Unary>)['Hang']?.call(client, Buffer.from('x'), new Metadata(), {}, (error, response) => {
          if (error) reject(error);
          else resolve(response ?? Buffer.alloc(0));
        });
      });
    const first = hang();
    const second = hang().catch((error: unknown) => error as ServiceError);
    while (calls.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const shutdown = { closed: false };
    server.tryShutdown(() => {
      shutdown.closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shutdown.closed).toBe(false); // still draining
    calls[0]?.callback(null, Buffer.from('done'));
    expect((await first).toString()).toBe('done');
    server.forceShutdown();
    await second;
    expect(calls[1]?.call.cancelled).toBe(true);
    while (!shutdown.closed) await new Promise((resolve) => setTimeout(resolve, 5));
    client.close();
  });
});
