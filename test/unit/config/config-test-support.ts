import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import { SluiceError } from '../../../src/sdk/errors/index.js';
import { loadConfig, type LoadConfigOptions, type SluiceConfig } from '../../../src/config/index.js';

/** Writes `text` to `<dir>/<name>` and returns the file's path. */
export async function writeConfigFile(dir: string, text: string, name = 'sluice.yaml'): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text, 'utf8');
  return file;
}

/** Loads with an empty environment and no overrides unless given. */
export function load(cwd: string, options: Partial<LoadConfigOptions> = {}): SluiceConfig {
  return loadConfig({ cwd, env: {}, ...options });
}

/** The message of the `SLUICE_CONFIG_INVALID` error `action` throws; fails the test when it does not throw one. */
export function configErrorMessage(action: () => unknown): string {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(SluiceError);
  expect((thrown as SluiceError).code).toBe('SLUICE_CONFIG_INVALID');
  return (thrown as SluiceError).message;
}
