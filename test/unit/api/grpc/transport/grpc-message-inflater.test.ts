import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { GrpcMessageInflater } from '../../../../../src/api/grpc/transport/grpc-message-inflater.js';


/** An inflater whose sink writes down what it hears; promises of the end (or the refusal) and of the first idle. */
function recorded(maxBytes = 1 << 20) {
  const events: string[] = [];
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let becomeIdle: () => void = () => undefined;
  const idled = new Promise<void>((resolve) => (becomeIdle = resolve));
  const inflater = new GrpcMessageInflater('gzip', maxBytes, {
    message: (bytes) => events.push(bytes.length > 32 ? `${String(bytes.length)} bytes` : bytes.toString()),
    refused: (error) => {
      events.push(`refused ${String(error.code)}`);
      finish();
    },
    end: () => {
      events.push('end');
      finish();
    },
    idle: () => {
      events.push('idle');
      becomeIdle();
    },
  });
  return { inflater, events, finished, idled };
}

describe('GrpcMessageInflater', () => {
  it('hands on uncompressed and small compressed messages at once', () => {
    const { inflater, events } = recorded();
    expect(inflater.push(Buffer.from('plain'), false)).toBe(true);
    expect(inflater.push(gzipSync(Buffer.from('small')), true)).toBe(true);
    inflater.end();
    expect(events).toEqual(['plain', 'small', 'end']);
  });

  it('keeps the order when a message inflated on the thread pool comes before small ones, and says when it is idle', async () => {
    const { inflater, events, finished } = recorded();
    expect(inflater.push(gzipSync(randomBytes(64 * 1024)), true)).toBe(false);
    expect(inflater.push(Buffer.from('after'), false)).toBe(false);
    expect(inflater.push(gzipSync(Buffer.from('small')), true)).toBe(false);
    inflater.end();
    expect(events).toEqual([]);
    await finished;
    expect(events).toEqual(['65536 bytes', 'after', 'small', 'end', 'idle']);
  });

  it('hands on the messages before one that does not inflate, then refuses it and drops the rest and the end', async () => {
    const { inflater, events, finished } = recorded(1024);
    inflater.push(Buffer.from('first'), false);
    inflater.push(gzipSync(randomBytes(64 * 1024)), true); // over the 1024-byte limit, found on the thread pool
    inflater.push(Buffer.from('dropped'), false);
    inflater.end();
    await finished;
    expect(events).toEqual(['first', `refused ${String(status.RESOURCE_EXHAUSTED)}`, 'idle']);
  });

  it('refuses a small message that does not inflate at once', () => {
    const { inflater, events } = recorded();
    expect(inflater.push(Buffer.from('not gzip'), true)).toBe(true);
    expect(events).toEqual([`refused ${String(status.INTERNAL)}`]);
  });

  it('hands on nothing of what was discarded, even once its inflation finishes', async () => {
    const { inflater, events, idled } = recorded();
    inflater.push(gzipSync(randomBytes(64 * 1024)), true);
    inflater.discard();
    inflater.push(Buffer.from('later'), false);
    inflater.end();
    await idled; // the discarded message's inflation finished
    expect(events).toEqual(['later', 'end', 'idle']);
  });
});
