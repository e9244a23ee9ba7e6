import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { observeRefusals } from '../../../../../src/api/rest/observation/refusal-observer.js';
import { answerClientError } from '../../../../../src/api/rest/refusals/transport-errors.js';
import { ConnectionTracker } from '../../../../../src/api/rest/connection-tracker.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';

describe('a request the parser refused behind one still being served', () => {
  const logger = new RecordingLogger();
  let fastify: FastifyInstance;
  let release: () => void = () => undefined;
  let port = 0;
  let refusalsSeen = 0;

  beforeEach(async () => {
    logger.lines.length = 0;
    refusalsSeen = 0;
    const refusals = observeRefusals(logger, { accessLog: true, logRequestBodies: false });
    fastify = Fastify({
      clientErrorHandler: (error, socket) => {
        refusalsSeen++;
        answerClientError(error, socket, connections, refusals);
      },
    });
    const connections = new ConnectionTracker(fastify);
    fastify.get('/held', () => new Promise<string>((resolve) => (release = () => {
      resolve('done');
    })));
    await fastify.listen({ host: '127.0.0.1', port: 0 });
    const address = fastify.server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterEach(async () => {
    release();
    await fastify.close();
  });

  /** Sends a request that is held, and a malformed one behind it, and resolves once the parser refused the second. */
  const pipelineBehindHeld = async (): Promise<Socket> => {
    const socket = connect(port, '127.0.0.1');
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.write('GET /held HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n');
    while (refusalsSeen === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    return socket;
  };
  const refusalLines = (): unknown[] => logger.lines.filter((l) => l.message === 'request').map((l) => l.fields);

  it('is logged with its status once the request before it is answered', async () => {
    const socket = await pipelineBehindHeld();
    expect(refusalLines()).toEqual([]);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    release();
    await closed;
    expect(refusalLines()).toEqual([expect.objectContaining({ method: null, url: null, status: 400, errorCode: 'SLUICE_REQUEST_INVALID', parserError: 'HPE_INVALID_METHOD' })]);
  });

  it('is logged with status 499 when the client closes the connection before the request before it is answered', async () => {
    const socket = await pipelineBehindHeld();
    socket.destroy();
    while (refusalLines().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(refusalLines()).toEqual([expect.objectContaining({ method: null, url: null, status: 499, errorCode: 'SLUICE_REQUEST_INVALID', remoteAddress: '127.0.0.1' })]);
  });
});

describe('a client that leaves part way through a request’s head', () => {
  const logger = new RecordingLogger();
  let fastify: FastifyInstance;
  let port = 0;
  /** The server's side of each connection, in the order they came. */
  const serverSockets: Socket[] = [];

  beforeEach(async () => {
    logger.lines.length = 0;
    serverSockets.length = 0;
    const refusals = observeRefusals(logger, { accessLog: true, logRequestBodies: false });
    fastify = Fastify({
      clientErrorHandler: (error, socket) => {
        answerClientError(error, socket, connections, refusals);
      },
    });
    const connections = new ConnectionTracker(fastify);
    fastify.server.on('connection', (socket: Socket) => serverSockets.push(socket));
    fastify.get('/ping', () => 'pong');
    await fastify.listen({ host: '127.0.0.1', port: 0 });
    const address = fastify.server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterEach(async () => {
    await fastify.close();
  });

  const accessLines = (): unknown[] => logger.lines.filter((l) => l.message === 'request').map((l) => l.fields);

  /**
   * Sends `bytes` on a fresh connection, waits until the server has read them all, then leaves as `leave`
   * says; resolves with what the server sent back once the server's side of the connection has closed.
   */
  const sendThenLeave = async (bytes: string, leave: (socket: Socket) => void, afterAnswer = false): Promise<string> => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(bytes);
    while (serverSockets[0]?.bytesRead !== Buffer.byteLength(bytes) || (afterAnswer && received.length === 0)) await new Promise((resolve) => setTimeout(resolve, 5));
    const serverSide = serverSockets[0];
    const serverClosed = new Promise((resolve) => serverSide.once('close', resolve));
    leave(socket);
    await serverClosed;
    return Buffer.concat(received).toString('latin1');
  };

  it('resetting the connection → one line, status 499, parserError ECONNRESET', async () => {
    await sendThenLeave('GET /ping HTTP/1.1\r\nHost: x\r\n', (socket) => socket.resetAndDestroy());
    expect(accessLines()).toEqual([
      { method: null, route: null, url: null, status: 499, latencyMs: null, requestId: expect.any(String) as unknown, errorCode: 'SLUICE_REQUEST_INVALID', parserError: 'ECONNRESET', remoteAddress: null },
    ]);
  });

  it('resetting the connection within the request line → one line, status 499', async () => {
    await sendThenLeave('GET /pi', (socket) => socket.resetAndDestroy());
    expect(accessLines()).toEqual([expect.objectContaining({ status: 499, errorCode: 'SLUICE_REQUEST_INVALID', parserError: 'ECONNRESET' })]);
  });

  it('closing its side of the connection → one line, status 499, parserError HPE_INVALID_EOF_STATE, nothing answered', async () => {
    const answer = await sendThenLeave('GET /ping HTTP/1.1\r\nHost: x\r\n', (socket) => socket.end());
    expect({ answer, lines: accessLines() }).toEqual({
      answer: '',
      lines: [
        { method: null, route: null, url: null, status: 499, latencyMs: null, requestId: expect.any(String) as unknown, errorCode: 'SLUICE_REQUEST_INVALID', parserError: 'HPE_INVALID_EOF_STATE', remoteAddress: '127.0.0.1' },
      ],
    });
  });

  it('resetting a keep-alive connection between requests → no line: no request had begun', async () => {
    const answer = await sendThenLeave('GET /ping HTTP/1.1\r\nHost: x\r\n\r\n', (socket) => socket.resetAndDestroy(), true);
    expect({ answered: answer.startsWith('HTTP/1.1 200'), lines: accessLines() }).toEqual({ answered: true, lines: [] });
  });
});
