import { describe, expect, it } from '@jest/globals';
import type { LogFormat } from '../../../../src/sdk/logging/logger.js';
import { resolveLogFormat } from '../../../../src/telemetry/logging/standard-output-log.js';

describe('resolveLogFormat', () => {
  it.each<[LogFormat, boolean, 'json' | 'pretty']>([
    ['auto', true, 'pretty'],
    ['auto', false, 'json'],
    ['json', true, 'json'],
    ['json', false, 'json'],
    ['pretty', true, 'pretty'],
    ['pretty', false, 'pretty'],
  ])('gives format %s, output to a terminal %s, as %s', (format, toTerminal, expected) => {
    expect(resolveLogFormat(format, toTerminal)).toBe(expected);
  });
});
