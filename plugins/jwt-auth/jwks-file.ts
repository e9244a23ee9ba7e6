import { readFile } from 'node:fs/promises';
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { SluiceError } from '../../src/plugins/sdk/index.js';

function loadFailed(file: string, reason: string, cause?: unknown): SluiceError {
  return new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `jwt-auth: cannot use the JWKS file ${file}: ${reason}`, { plugin: 'jwt-auth', file }, { cause });
}

/**
 * Reads a JSON Web Key Set (`{"keys": [...]}`) from a local file and returns the key resolver `jwtVerify`
 * takes: it picks the key by the token's `kid` and `alg`. Only public keys belong in the file.
 */
export async function readJwksFile(file: string): Promise<JWTVerifyGetKey> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    throw loadFailed(file, error instanceof Error ? error.message : String(error), error);
  }
  const keys = typeof parsed === 'object' && parsed !== null ? (parsed as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) throw loadFailed(file, 'it must be a JSON object with a non-empty "keys" list');
  if (keys.some((key) => typeof key !== 'object' || key === null || 'd' in key)) {
    throw loadFailed(file, 'every key must be a JWK object, and a public one (no "d" member)');
  }
  try {
    return createLocalJWKSet(parsed as JSONWebKeySet);
  } catch (error) {
    throw loadFailed(file, error instanceof Error ? error.message : String(error), error);
  }
}
