import { describe, expect, it } from '@jest/globals';
import { assertTransition, isLive, type PayloadState } from '../../../src/batching/payload-state.js';
import { SluiceError } from '../../../src/sdk/errors/index.js';

const STATES: readonly PayloadState[] = ['queued', 'batched', 'executing', 'answered', 'cancelled', 'expired'];

/** The state diagram of a payload, written out once more as the specification. */
const ALLOWED: ReadonlyArray<readonly [PayloadState, PayloadState]> = [
  ['queued', 'batched'],
  ['queued', 'cancelled'],
  ['queued', 'expired'],
  ['queued', 'answered'],
  ['batched', 'executing'],
  ['batched', 'answered'],
  ['batched', 'expired'],
  ['executing', 'answered'],
  ['executing', 'expired'],
  ['executing', 'queued'],
];

const REFUSED = STATES.flatMap((from) => STATES.map((to) => [from, to] as const)).filter(
  ([from, to]) => !ALLOWED.some(([f, t]) => f === from && t === to),
);

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}

describe('payload state transitions', () => {
  it.each(ALLOWED)('allows %s → %s', (from, to) => {
    expect(() => {
      assertTransition(from, to);
    }).not.toThrow();
  });

  it.each(REFUSED)('refuses %s → %s as a scheduler bug (SLUICE_INTERNAL)', (from, to) => {
    const error = thrown(() => {
      assertTransition(from, to);
    });
    expect(error).toBeInstanceOf(SluiceError);
    expect((error as SluiceError).code).toBe('SLUICE_INTERNAL');
    expect((error as SluiceError).message).toBe(`scheduler bug: a payload cannot go from ${from} to ${to}`);
  });
});

describe('isLive', () => {
  it.each([
    ['queued', true],
    ['batched', true],
    ['executing', true],
    ['answered', false],
    ['cancelled', false],
    ['expired', false],
  ] as const)('says %s owes an answer: %s', (state, live) => {
    expect(isLive(state)).toBe(live);
  });
});
