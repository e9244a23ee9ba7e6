import { describe, expect, test } from '@jest/globals';
import { MAX_TIMER_DELAY_MS } from '../../../src/timers/long-timeout.js';
import { listConfigKeys } from '../../../src/config/index.js';

describe('durations in the configuration', () => {
  test('every key in milliseconds is bounded by the longest delay a timer can wait', () => {
    const durations = listConfigKeys().filter((info) => info.kind === 'value' && info.key.endsWith('Ms'));
    expect(durations.length).toBeGreaterThan(5);
    expect(durations.filter((info) => (info.schema as { maximum?: number }).maximum !== MAX_TIMER_DELAY_MS).map((info) => info.key)).toEqual([]);
  });
});
