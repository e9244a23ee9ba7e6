import { describe, expect, it } from '@jest/globals';
import { ShareLeft, ThreadShare } from '../../../../src/serving/handler-pool/thread-share.js';

const never = new AbortController().signal;
const A = { name: 'a' };
const B = { name: 'b' };

/** The order in which `calls` were admitted, once every admitted one has had its turn. */
async function admitted(calls: readonly (readonly [string, Promise<void> | undefined])[]): Promise<string[]> {
  const order: string[] = [];
  for (const [name, turn] of calls) if (turn === undefined) order.push(name);
  await Promise.all(calls.map(async ([name, turn]) => turn?.then(() => order.push(name))));
  return order;
}

describe('ThreadShare', () => {
  it('admits a model’s calls at once up to its share', () => {
    const share = new ThreadShare(2);
    expect(share.take(A, false, never)).toBeUndefined();
    expect(share.take(A, false, never)).toBeUndefined();
    expect(share.calls(A)).toEqual({ holding: 2, waiting: 0 });
  });

  it('makes a call over its model’s share wait until one of that model’s calls ends', async () => {
    const share = new ThreadShare(1);
    void share.take(A, false, never);
    let admittedYet = false;
    const turn = share.take(A, false, never)?.then(() => (admittedYet = true));
    await Promise.resolve();
    expect(admittedYet).toBe(false);
    share.give(A);
    await turn;
    expect(share.calls(A)).toEqual({ holding: 1, waiting: 0 });
  });

  it('admits the waiting preprocess calls of a model in the order they came', async () => {
    const share = new ThreadShare(1);
    void share.take(A, false, never);
    const calls = [['second', share.take(A, false, never)], ['third', share.take(A, false, never)]] as const;
    share.give(A);
    share.give(A);
    expect(await admitted(calls)).toEqual(['second', 'third']);
  });

  it('admits a waiting postprocess call before the preprocess calls that came earlier', async () => {
    const share = new ThreadShare(1);
    void share.take(A, false, never);
    const order: string[] = [];
    const preprocess = share.take(A, false, never)?.then(() => order.push('preprocess'));
    const postprocess = share.take(A, true, never)?.then(() => order.push('postprocess'));
    share.give(A);
    share.give(A);
    await Promise.all([preprocess, postprocess]);
    expect(order).toEqual(['postprocess', 'preprocess']);
  });

  it('does not count one model’s calls against another’s share', () => {
    const share = new ThreadShare(1);
    void share.take(A, false, never);
    expect(share.take(B, false, never)).toBeUndefined();
    expect(share.calls(B)).toEqual({ holding: 1, waiting: 0 });
  });

  it('tells two versions with equal names apart by identity', () => {
    const share = new ThreadShare(1);
    void share.take(A, false, never);
    expect(share.take({ ...A }, false, never)).toBeUndefined();
  });

  it('lets a waiting call leave when its signal aborts, and admits the next instead', async () => {
    const share = new ThreadShare(1);
    void share.take(A, false, never);
    const leaving = new AbortController();
    const left = share.take(A, false, leaving.signal);
    const next = share.take(A, false, never);
    leaving.abort();
    await expect(left).rejects.toEqual(new ShareLeft('aborted'));
    expect(share.calls(A)).toEqual({ holding: 1, waiting: 1 });
    share.give(A);
    await next;
    expect(share.calls(A)).toEqual({ holding: 1, waiting: 0 });
  });

  it('refuses at once a call over its share whose signal has aborted already', async () => {
    const share = new ThreadShare(1);
    void share.take(A, false, never);
    const aborted = new AbortController();
    aborted.abort();
    await expect(share.take(A, false, aborted.signal)).rejects.toEqual(new ShareLeft('aborted'));
    expect(share.calls(A)).toEqual({ holding: 1, waiting: 0 });
  });

  it('passes over a waiting call that has gone when its turn comes, telling it so', async () => {
    const share = new ThreadShare(1);
    void share.take(A, false, never);
    let gone = false;
    const leaving = share.take(A, false, never, { gone: () => gone });
    const next = share.take(A, false, never);
    gone = true;
    share.give(A);
    await expect(leaving).rejects.toEqual(new ShareLeft('gone'));
    await next;
    expect(share.calls(A)).toEqual({ holding: 1, waiting: 0 });
  });

  it('prunes the waiting calls that have gone and answers how many still wait', async () => {
    const share = new ThreadShare(1);
    void share.take(A, false, never);
    const gone = share.take(A, false, never, { gone: () => true });
    void share.take(A, false, never, { gone: () => false });
    expect(share.prune(A)).toBe(1);
    await expect(gone).rejects.toEqual(new ShareLeft('gone'));
    expect(share.calls(A)).toEqual({ holding: 1, waiting: 1 });
  });

  it('forgets a model once its last call ends', () => {
    const share = new ThreadShare(2);
    void share.take(A, false, never);
    share.give(A);
    expect(share.calls(A)).toEqual({ holding: 0, waiting: 0 });
    expect(share.take(A, false, never)).toBeUndefined();
  });
});
