import type { ClientHttp2Session } from 'node:http2';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { status, type ServiceDefinition } from '@grpc/grpc-js';
import type { GrpcCallback, GrpcServerCall } from '../../../../../src/api/grpc/transport/grpc-server-call.js';
import { frameMessage } from '../../../../../src/api/grpc/transport/grpc-message-decoder.js';
import { Http2GrpcServer } from '../../../../../src/api/grpc/transport/http2-grpc-server.js';
import { openRawGrpcCall, rawGrpcSession, serverHasRead, within } from '../../../../support/raw-grpc-call.js';

/** Messages are raw bytes: the test needs no protos. */
const bytes = (value: Buffer): Buffer => value;
function method(name: string, requestStream: boolean, responseStream: boolean) {
  return {
    path: `/test.Echo/${name}`,
    requestStream,
    responseStream,
    requestSerialize: bytes,
    requestDeserialize: bytes,
    responseSerialize: bytes,
    responseDeserialize: bytes,
  };
}
const SERVICE = {
  Unary: method('Unary', false, false),
  Held: method('Held', false, false),
  Chat: method('Chat', true, true),
  Once: method('Once', true, true),
} as unknown as ServiceDefinition;

/** Long enough for anything on loopback; a stream still open after it is waiting on its client. */
const SETTLE_MS = 2000;

/** What the server's handlers saw. */
interface Seen {
  unaryCalls: number;
  /** Answers of `Held` calls, to give when the test chooses. */
  held: (() => void)[];
  chatMessages: string[];
}

/**
 * `Unary` echoes, `Chat` echoes each message in upper case and ends when the request side ends, `Once`
 * answers its first message and ends the call at once, whether or not the client has half-closed.
 */
async function startServer(seen: Seen): Promise<{ server: Http2GrpcServer; address: string }> {
  const server = new Http2GrpcServer({ maxReceiveMessageBytes: 64, maxSendMessageBytes: 64 });
  server.addService(SERVICE, {
    Unary: (c: GrpcServerCall, callback: GrpcCallback) => {
      seen.unaryCalls++;
      callback(null, c.request);
    },
    Held: (c: GrpcServerCall, callback: GrpcCallback) => {
      seen.held.push(() => {
        callback(null, c.request);
      });
    },
    Chat: (c: GrpcServerCall) => {
      c.on('data', (message: Buffer) => {
        seen.chatMessages.push(message.toString());
        c.write(Buffer.from(message.toString().toUpperCase()));
      });
      c.on('end', () => {
        c.end();
      });
    },
    Once: (c: GrpcServerCall) => {
      c.once('data', (message: Buffer) => {
        c.write(message);
        c.end();
      });
    },
  });
  const port = await server.listen('127.0.0.1', 0);
  return { server, address: `127.0.0.1:${String(port)}` };
}

function shutDown(server: Http2GrpcServer): Promise<'closed'> {
  return new Promise((resolve) => {
    server.tryShutdown(() => {
      resolve('closed');
    });
  });
}

describe('Http2GrpcServer does not wait on its clients', () => {
  let seen: Seen;
  let server: Http2GrpcServer;
  let session: ClientHttp2Session;

  beforeEach(async () => {
    seen = { unaryCalls: 0, held: [], chatMessages: [] };
    const started = await startServer(seen);
    server = started.server;
    session = rawGrpcSession(started.address);
  });
  afterEach(async () => {
    session.destroy();
    server.forceShutdown();
    await shutDown(server);
  });

  it('serves a call whose grpc-timeout is longer than a timer holds (720H) instead of expiring it at once', async () => {
    const call = openRawGrpcCall(session, '/test.Echo/Held', frameMessage(Buffer.from('x')), { 'grpc-timeout': '720H' });
    call.stream.end();
    while (seen.held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50)); // a timer set beyond its limit fires after 1 ms
    seen.held[0]?.();
    expect((await call.answer).status).toBe(String(status.OK));
  });

  it('resets a client still uploading a message over the limit once the status is out, so it stops sending', async () => {
    const prefix = Buffer.from([0, 0, 1, 0, 0]); // a 65 536-byte message, over the 64-byte limit
    const call = openRawGrpcCall(session, '/test.Echo/Unary', prefix);
    const answer = await within(call.answer, SETTLE_MS);
    expect(answer).toMatchObject({ status: String(status.RESOURCE_EXHAUSTED), rstCode: 0 });
  });

  it('sends the trailers before it resets a bidirectional stream the client has not half-closed', async () => {
    const call = openRawGrpcCall(session, '/test.Echo/Once', frameMessage(Buffer.from('hi')));
    const answer = await within(call.answer, SETTLE_MS);
    expect(answer).toMatchObject({ status: String(status.OK), events: ['headers', 'data', 'trailers', 'close'], rstCode: 0 });
  });

  describe('on tryShutdown', () => {
    it('answers UNAVAILABLE to a unary call still waiting for the end of its request, without running it', async () => {
      const call = openRawGrpcCall(session, '/test.Echo/Unary', frameMessage(Buffer.from('x')));
      await serverHasRead(session);
      const closed = shutDown(server);
      expect(await within(call.answer, SETTLE_MS)).toMatchObject({
        status: String(status.UNAVAILABLE),
        message: 'the server is shutting down and did not run this call; send it again',
      });
      expect(await within(closed, SETTLE_MS)).toBe('closed');
      expect(seen.unaryCalls).toBe(0);
    });

    it('ends a bidirectional stream the client keeps open: the handler answers what came, and the call ends OK', async () => {
      const call = openRawGrpcCall(session, '/test.Echo/Chat', frameMessage(Buffer.from('hi')));
      while (seen.chatMessages.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const closed = shutDown(server);
      expect(await within(call.answer, SETTLE_MS)).toMatchObject({ status: String(status.OK), events: ['headers', 'data', 'trailers', 'close'] });
      expect(await within(closed, SETTLE_MS)).toBe('closed');
    });

    it('ends such a stream UNAVAILABLE when a message the client had begun was left unread', async () => {
      const second = frameMessage(Buffer.from('there'));
      // One write, one DATA frame: the first message and the start of the second arrive together.
      const call = openRawGrpcCall(session, '/test.Echo/Chat', Buffer.concat([frameMessage(Buffer.from('hi')), second.subarray(0, 3)]));
      while (seen.chatMessages.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const closed = shutDown(server);
      expect(await within(call.answer, SETTLE_MS)).toMatchObject({
        status: String(status.UNAVAILABLE),
        message: 'the server shut down before reading every request message of this stream; send the unanswered ones again',
      });
      expect(await within(closed, SETTLE_MS)).toBe('closed');
      expect(seen.chatMessages).toEqual(['hi']);
    });
  });
});
