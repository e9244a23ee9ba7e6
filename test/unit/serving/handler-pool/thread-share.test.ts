import { describe, expect, it } from '@jest/globals';
import { ThreadShare } from '../../../../src/serving/handler-pool/thread-share.js';

const never = new AbortController().signal;

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
    expect(share.take('a', never)).toBeUndefined();
    expect(share.take('a', never)).toBeUndefined();
    expect(share.calls('a')).toEqual({ holding: 2, waiting: 0 });
  });

  it('makes a call over its model’s share wait until one of that model’s calls ends', async () => {
    const share = new ThreadShare(1);
    share.take('a', never);
    let admittedYet = false;
    const turn = share.take('a', never)?.then(() => (admittedYet = true));
    await Promise.resolve();
    expect(admittedYet).toBe(false);
    share.give('a');
    await turn;
    expect(share.calls('a')).toEqual({ holding: 1, waiting: 0 });
  });

  it('admits the waiting calls of a model in the order they came', async () => {
    const share = new ThreadShare(1);
    share.take('a', never);
    const calls = [['second', share.take('a', never)], ['third', share.take('a', never)]] as const;
    share.give('a');
    share.give('a');
    expect(await admitted(calls)).toEqual(['second', 'third']);
  });

  it('does not count one model’s calls against another’s share', () => {
    const share = new ThreadShare(1);
    share.take('a', never);
    expect(share.take('b', never)).toBeUndefined();
    expect(share.calls('b')).toEqual({ holding: 1, waiting: 0 });
  });

  it('lets a waiting call leave when its signal aborts, with the signal’s reason, and admits the next instead', async () => {
    const share = new ThreadShare(1);
    share.take('a', never);
    const leaving = new AbortController();
    const left = share.take('a', leaving.signal);
    const next = share.take('a', never);
    leaving.abort(new Error('deadline'));
    await expect(left).rejects.toThrow('deadline');
    expect(share.calls('a')).toEqual({ holding: 1, waiting: 1 });
    share.give('a');
    await next;
    expect(share.calls('a')).toEqual({ holding: 1, waiting: 0 });
  });

  it('refuses at once a call over its share whose signal has aborted already', async () => {
    const share = new ThreadShare(1);
    share.take('a', never);
    const aborted = new AbortController();
    aborted.abort(new Error('unloaded'));
    await expect(share.take('a', aborted.signal)).rejects.toThrow('unloaded');
    expect(share.calls('a')).toEqual({ holding: 1, waiting: 0 });
  });

  it('forgets a model once its last call ends', () => {
    const share = new ThreadShare(2);
    share.take('a', never);
    share.give('a');
    expect(share.calls('a')).toEqual({ holding: 0, waiting: 0 });
    expect(share.take('a', never)).toBeUndefined();
  });
});
