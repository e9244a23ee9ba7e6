import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { listConfigEnvVariables, listConfigKeys } from '../../../src/config/index.js';

const docs = readFileSync(join(packageRoot(), 'docs', 'configuration.md'), 'utf8');

describe('docs/configuration.md', () => {
  test('names every configuration key in backticks', () => {
    const missing = listConfigKeys()
      .map((info) => info.key)
      .filter((key) => !docs.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });

  test('names every environment variable in backticks', () => {
    const missing = listConfigEnvVariables()
      .map((variable) => variable.name)
      .filter((name) => !docs.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
