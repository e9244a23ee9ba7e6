import { describe, expect, it } from '@jest/globals';
import { coresUsed, parsePidStat, parseProcStat, parseSchedstat } from '../../../bench/cpu-usage.js';

describe('parseProcStat', () => {
  it('adds up busy and total ticks of the aggregate line', () => {
    const text = 'cpu  100 5 20 800 10 1 2 3 0 0\ncpu0 50 0 10 400 5 0 1 1 0 0\nintr 1\n';
    expect(parseProcStat(text)).toEqual({ busy: 131, total: 941 });
  });

  it('throws without an aggregate line', () => {
    expect(() => parseProcStat('intr 1\n')).toThrow(/cpu line/);
  });
});

describe('parsePidStat', () => {
  it('adds utime and stime, whatever the command name holds', () => {
    const rest = 'S 1 1 1 0 -1 4194304 102 0 0 0 70 30 0 0 20 0 1 0 398607';
    expect(parsePidStat(`42 (node) ${rest}`)).toBe(100);
    expect(parsePidStat(`42 (a) b (c) ${rest}`)).toBe(100);
  });
});

describe('coresUsed', () => {
  it('scales the busy share by the number of CPUs', () => {
    expect(coresUsed(50, 200, 2)).toBe(0.5);
    expect(coresUsed(0, 0, 2)).toBe(0);
  });
});

describe('parseSchedstat', () => {
  it('reads the nanoseconds run, the first field', () => {
    expect(parseSchedstat('1072553 40211 17\n')).toBe(1072553);
  });

  it('throws on a line that is not one', () => {
    expect(() => parseSchedstat('')).toThrow(/schedstat/);
  });
});
