import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ERROR_CODES, type ErrorCode } from '../../../src/sdk/errors/index.js';
import { httpStatusOf } from '../../../src/api/errors/error-mapping.js';
import { packageRoot } from '../../../src/package-files/package-root.js';

const doc = readFileSync(join(packageRoot(), 'docs', 'errors.md'), 'utf8');
const rows = new Map([...doc.matchAll(/^\| `(SLUICE_[A-Z_]+)` \| ([^|]+) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]));

/** Codes that only refuse a start, never answer a request; the doc shows "–" for their status. */
const START_UP_ONLY = new Set(['SLUICE_CONFIG_INVALID', 'SLUICE_PLUGIN_INVALID', 'SLUICE_PLUGIN_LOAD_FAILED']);

describe('docs/errors.md', () => {
  it.each(Object.keys(ERROR_CODES))('documents %s', (code) => {
    expect(rows.has(code)).toBe(true);
  });

  it('documents no code that does not exist', () => {
    expect([...rows.keys()].filter((code) => !(code in ERROR_CODES))).toEqual([]);
  });

  it.each([...START_UP_ONLY])('shows no HTTP status for the start-up code %s', (code) => {
    expect(rows.get(code)).toBe('–');
  });

  it.each(Object.keys(ERROR_CODES).filter((code) => !START_UP_ONLY.has(code)))('gives the real HTTP status of %s', (code) => {
    const info = ERROR_CODES[code as ErrorCode];
    expect(rows.get(code)).toMatch(new RegExp(`^${httpStatusOf(code as ErrorCode, info.category)}\\b`));
  });
});
