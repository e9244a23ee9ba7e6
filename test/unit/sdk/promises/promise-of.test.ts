import { describe, expect, it } from '@jest/globals';
import { promiseOf } from '../../../../src/sdk/promises/promise-of.js';

describe('promiseOf', () => {
  it('resolves with what the work returns', async () => {
    await expect(promiseOf(() => 42)).resolves.toBe(42);
  });

  it('settles as a promise the work returns', async () => {
    await expect(promiseOf(() => Promise.resolve('later'))).resolves.toBe('later');
  });

  it('rejects, not throws, with an error the work throws', async () => {
    const failure = new Error('bad input');
    let made: Promise<never> | undefined;
    expect(() => {
      made = promiseOf(() => {
        throw failure;
      });
    }).not.toThrow();
    await expect(made).rejects.toBe(failure);
  });

  it('rejects with an Error naming a thrown value that is not one', async () => {
    await expect(
      promiseOf(() => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a careless caller may throw
        throw 'not an error';
      }),
    ).rejects.toThrow(new Error('not an error'));
  });
});
