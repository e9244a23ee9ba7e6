import { describe, expect, it } from '@jest/globals';
import { HttpPartialStream, STREAM_STARTED } from '../../../../../src/api/rest/streaming/http-partial-stream.js';

/** A promise and the functions that settle it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('HttpPartialStream.answerOrStart', () => {
  it('settles with the work’s answer when the work ends before any part', async () => {
    const stream = new HttpPartialStream('chunked');
    await expect(stream.answerOrStart(Promise.resolve({ label: 'cat' }))).resolves.toEqual({ label: 'cat' });
  });

  it('settles with STREAM_STARTED at the first part while the work goes on', async () => {
    const stream = new HttpPartialStream('chunked');
    const work = deferred<string>();
    const first = stream.answerOrStart(work.promise);
    await stream.send({ token: 'a' });
    await expect(first).resolves.toBe(STREAM_STARTED);
    work.resolve('late');
  });

  it('settles with STREAM_STARTED when a part was sent before it was asked', async () => {
    const stream = new HttpPartialStream('chunked');
    await stream.send('early');
    await expect(stream.answerOrStart(new Promise<string>(() => undefined))).resolves.toBe(STREAM_STARTED);
  });

  it('rejects with the work’s failure when the work fails before any part', async () => {
    const stream = new HttpPartialStream('sse');
    await expect(stream.answerOrStart(Promise.reject(new Error('handler failed')))).rejects.toThrow('handler failed');
  });

  it('stays STREAM_STARTED when the work fails after the first part', async () => {
    const stream = new HttpPartialStream('chunked');
    const work = deferred<string>();
    const first = stream.answerOrStart(work.promise);
    await stream.send('part');
    work.reject(new Error('failed later'));
    await expect(first).resolves.toBe(STREAM_STARTED);
  });
});
