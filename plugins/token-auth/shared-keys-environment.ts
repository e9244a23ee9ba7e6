import { SharedKeySet, type SharedKeySource, type SharedKeyType } from './shared-keys.js';

/** The environment variables that hold the shared keys, one per API family. */
export const SHARED_KEY_VARIABLES: Readonly<Record<SharedKeyType, string>> = {
  inference: 'SLUICE_TOKEN_AUTH_INFERENCE_KEY',
  management: 'SLUICE_TOKEN_AUTH_MANAGEMENT_KEY',
};

const ENVIRONMENT: SharedKeySource = { describe: 'the keys in the environment', keyName: (type) => SHARED_KEY_VARIABLES[type] };

/** One variable's keys: comma-separated, blanks around each ignored (a secret's file often ends in a newline). */
function keysIn(value: string | undefined): string | string[] | undefined {
  if (value === undefined) return undefined;
  const keys = value.split(',').map((key) => key.trim());
  return keys.length === 1 ? keys[0] : keys;
}

/**
 * The shared keys of `env`: `SLUICE_TOKEN_AUTH_INFERENCE_KEY` and `SLUICE_TOKEN_AUTH_MANAGEMENT_KEY`, each
 * one key or several separated by commas. A variable missing or holding an unusable key is refused
 * naming it (`SLUICE_PLUGIN_LOAD_FAILED`).
 */
export function sharedKeysFromEnvironment(env: Readonly<Record<string, string | undefined>>): SharedKeySet {
  return SharedKeySet.of({ inference: keysIn(env[SHARED_KEY_VARIABLES.inference]), management: keysIn(env[SHARED_KEY_VARIABLES.management]) }, ENVIRONMENT);
}
