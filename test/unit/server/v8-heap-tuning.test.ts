import { describe, expect, it } from '@jest/globals';
import { turnOffPretenuring } from '../../../src/server/v8-heap-tuning.js';

describe('turnOffPretenuring', () => {
  it('turns pretenuring off in a process started without a word on it', () => {
    expect(turnOffPretenuring(['--enable-source-maps'])).toBe(true);
  });

  it('leaves it to a process started with --allocation-site-pretenuring', () => {
    expect(turnOffPretenuring(['--allocation-site-pretenuring'])).toBe(false);
  });

  it('leaves it to a process started with --no-allocation-site-pretenuring', () => {
    expect(turnOffPretenuring(['--no-allocation-site-pretenuring'])).toBe(false);
  });

  it('reads the flag spelled with underscores, as V8 also accepts it', () => {
    expect(turnOffPretenuring(['--allocation_site_pretenuring'])).toBe(false);
  });
});
