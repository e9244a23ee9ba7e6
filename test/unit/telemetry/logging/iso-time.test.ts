import { describe, expect, it } from '@jest/globals';
import { isoTime } from '../../../../src/telemetry/logging/iso-time.js';

describe('isoTime', () => {
  it('equals toISOString for every millisecond of a second and across seconds', () => {
    const start = Date.UTC(2026, 10, 30, 23, 59, 58, 990);
    for (let ms = start; ms < start + 2_100; ms++) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('equals toISOString for times that go back and jump', () => {
    for (const ms of [Date.UTC(2026, 0, 1), 5, 1_000, 999, Date.UTC(2000, 1, 29, 12, 0, 0, 7), 5, -1, -1_001, 253_402_300_799_999, 253_402_300_800_001]) {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('equals toISOString for random times', () => {
    let seed = 7;
    for (let i = 0; i < 10_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const ms = Math.floor((seed / 2_147_483_648) * 4_000_000_000_000);
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      expect(isoTime(ms + 1)).toBe(new Date(ms + 1).toISOString());
    }
  });
});
