import { describe, expect, it } from '@jest/globals';
import { parseVmRssBytes, residentBytes } from '../../../bench/process-memory.js';

describe('parseVmRssBytes', () => {
  it('reads VmRSS in bytes', () => {
    expect(parseVmRssBytes('Name:\tnode\nVmPeak:\t 999 kB\nVmRSS:\t   123456 kB\nVmData:\t 1 kB\n')).toBe(123_456 * 1024);
  });

  it('throws without a VmRSS line', () => {
    expect(() => parseVmRssBytes('Name:\tkthreadd\n')).toThrow(/VmRSS/);
  });
});

describe.each(process.platform === 'linux' ? ['linux'] : [])('residentBytes (%s)', () => {
  it('reads the resident memory of this process', async () => {
    expect(await residentBytes(process.pid)).toBeGreaterThan(0);
  });
});
