import { createPublicKey, type JsonWebKeyInput } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { SluiceError } from '../../src/sdk/index.js';

function loadFailed(file: string, reason: string, cause?: unknown): SluiceError {
  return new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `jwt-auth: cannot use the JWKS file ${file}: ${reason}`, { plugin: 'jwt-auth', file }, { cause });
}

/** An error's message; Node's own errors may come from another realm, so not by `instanceof Error`. */
export function messageOf(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : String(error);
}

/** The smallest RSA modulus tokens may be verified with, in bits (what the JWT library demands). */
const MIN_RSA_BITS = 2048;

/**
 * Why `key` cannot verify tokens, or undefined when it can: a secret (`oct`) key, key material that does
 * not parse, or an RSA modulus under {@link MIN_RSA_BITS} bits. Found at start-up, such a key would
 * otherwise fail each request that picks it.
 */
function unusableKeyProblem(key: object): string | undefined {
  if ('kty' in key && key.kty === 'oct') return 'is a secret (oct) key; the file must hold public keys only';
  let bits: number | undefined;
  try {
    bits = createPublicKey({ key, format: 'jwk' } as JsonWebKeyInput).asymmetricKeyDetails?.modulusLength;
  } catch (error) {
    return `is not a usable public key: ${messageOf(error)}`;
  }
  if (bits === 0) return 'is not a usable public key: its RSA modulus is empty';
  return bits !== undefined && bits < MIN_RSA_BITS ? `has a ${bits}-bit RSA modulus; RS and PS tokens need at least ${MIN_RSA_BITS} bits` : undefined;
}

/**
 * The key resolver `jwtVerify` takes for a parsed JSON Web Key Set (`{"keys": [...]}`): it picks the key
 * by the token's `kid` and `alg`. Only public keys belong in the set, and each must be usable (see
 * {@link unusableKeyProblem}); `refuse` makes the error thrown for a set that breaks a rule, from the reason.
 */
export function keySetOf(parsed: unknown, refuse: (reason: string, cause?: unknown) => Error): JWTVerifyGetKey {
  const keys = typeof parsed === 'object' && parsed !== null ? (parsed as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) throw refuse('it must be a JSON object with a non-empty "keys" list');
  if (keys.some((key) => typeof key !== 'object' || key === null || 'd' in key)) {
    throw refuse('every key must be a JWK object, and a public one (no "d" member)');
  }
  keys.forEach((key: object, index) => {
    const problem = unusableKeyProblem(key);
    if (problem !== undefined) throw refuse(`key ${index}${'kid' in key && typeof key.kid === 'string' ? ` (kid ${JSON.stringify(key.kid)})` : ''} ${problem}`);
  });
  try {
    return createLocalJWKSet(parsed as JSONWebKeySet);
  } catch (error) {
    throw refuse(messageOf(error), error);
  }
}

/**
 * Reads a JSON Web Key Set (`{"keys": [...]}`) from a local file and returns the key resolver `jwtVerify`
 * takes (see {@link keySetOf}): a bad key is refused at start-up.
 */
export async function readJwksFile(file: string): Promise<JWTVerifyGetKey> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    throw loadFailed(file, messageOf(error), error);
  }
  return keySetOf(parsed, (reason, cause) => loadFailed(file, reason, cause));
}
