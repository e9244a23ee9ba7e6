import { describe, expect, it } from '@jest/globals';
import { closestName, suggestName } from '../../../../src/workflow/problems/did-you-mean.js';

describe('did you mean', () => {
  it('suggests the closest known name for a typo', () => {
    expect(closestName('detct', ['crop', 'detect', 'read'])).toBe('detect');
  });

  it('ignores case when comparing', () => {
    expect(closestName('Detect', ['detect'])).toBe('detect');
  });

  it('suggests nothing when no name is close', () => {
    expect(closestName('segmentation', ['crop', 'detect'])).toBeUndefined();
  });

  it('does not suggest a different short name', () => {
    expect(closestName('ab', ['xy'])).toBeUndefined();
  });

  it('words a close match as a question', () => {
    expect(suggestName('detct', ['detect'], 'nodes')).toBe('did you mean `detect`?');
  });

  it('lists the known names when none is close', () => {
    expect(suggestName('zzz', ['a1', 'b2'], 'nodes')).toBe('known nodes: a1, b2');
  });

  it('says when there is nothing to choose from', () => {
    expect(suggestName('zzz', [], 'inputs')).toBe('there are no inputs');
  });
});
