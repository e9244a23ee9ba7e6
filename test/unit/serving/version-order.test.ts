import { describe, expect, it } from '@jest/globals';
import { compareVersions } from '../../../src/serving/version-order.js';

describe('compareVersions', () => {
  it('compares numeric parts as numbers', () => {
    expect(compareVersions('1.10', '1.9')).toBe(1);
    expect(compareVersions('1.9', '1.10')).toBe(-1);
    expect(compareVersions('10', '9')).toBe(1);
  });

  it('finds equal versions equal', () => {
    expect(compareVersions('2.0.1', '2.0.1')).toBe(0);
  });

  it('ignores leading zeros in numeric parts', () => {
    expect(compareVersions('1.01', '1.1')).toBe(0);
  });

  it('treats dots, dashes and underscores alike', () => {
    expect(compareVersions('1-2_3', '1.2.3')).toBe(0);
  });

  it('orders a version below the same version with more parts', () => {
    expect(compareVersions('1.0', '1.0.1')).toBe(-1);
    expect(compareVersions('1.0.1', '1.0')).toBe(1);
  });

  it('compares text parts as text', () => {
    expect(compareVersions('1.0-alpha', '1.0-beta')).toBe(-1);
    expect(compareVersions('v2', 'v1')).toBe(1);
  });

  it('answers only -1, 0 or 1', () => {
    expect(compareVersions('1.100', '1.1')).toBe(1);
    expect(compareVersions('a', 'zzz')).toBe(-1);
  });

  it('sorts versions naturally', () => {
    expect(['1.10', '2', '1.9', '1.2', '1.2.1'].sort(compareVersions)).toEqual(['1.2', '1.2.1', '1.9', '1.10', '2']);
  });
});
