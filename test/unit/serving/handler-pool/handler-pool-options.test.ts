import { availableParallelism } from 'node:os';
import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import { defaultHandlerThreads, handlerThreads, threadsPerModel } from '../../../../src/serving/handler-pool/handler-pool-options.js';

describe('handlerThreads', () => {
  it('defaults to one thread fewer than the cores, at least two', () => {
    expect(defaultHandlerThreads()).toBe(Math.max(2, availableParallelism() - 1));
    expect(handlerThreads({})).toBe(defaultHandlerThreads());
  });

  it('takes a set count', () => {
    expect(handlerThreads({ threads: 3 })).toBe(3);
  });

  it.each([0, -1, 1.5])('refuses %p threads', (threads) => {
    expect(() => handlerThreads({ threads })).toThrow(new SluiceError('SLUICE_CONFIG_INVALID', `handler threads must be a positive integer, got ${threads}`));
  });
});

describe('threadsPerModel', () => {
  it.each([
    [1, 1],
    [2, 1],
    [3, 2],
    [15, 14],
  ])('lets one model hold %p threads but one: %p', (threads, perModel) => {
    expect(threadsPerModel(threads)).toBe(perModel);
  });
});
