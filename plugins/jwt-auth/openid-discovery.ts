import { SluiceError } from '../../src/sdk/index.js';
import { fetchJson } from './json-fetch.js';

/** Where an issuer publishes its OpenID Provider metadata (OpenID Connect Discovery 1.0, section 4). */
export function openidConfigurationUrl(issuer: string): URL {
  return new URL(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
}

function discoveryFailed(url: URL, reason: string, cause?: unknown): SluiceError {
  return new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `jwt-auth: cannot use the OpenID configuration at ${url.href}: ${reason}`, { plugin: 'jwt-auth', url: url.href }, { cause });
}

/**
 * The JWKS URL of `issuer`, read from its OpenID configuration: the document must be a JSON object whose
 * `issuer` is exactly the configured one (so a document served for another issuer is never trusted) and
 * whose `jwks_uri` is an http(s) URL. Anything else is `SLUICE_PLUGIN_LOAD_FAILED` naming the document's
 * URL and what is wrong.
 */
export async function discoverJwksUrl(issuer: string, timeoutMs: number): Promise<URL> {
  const url = openidConfigurationUrl(issuer);
  let document: unknown;
  try {
    document = await fetchJson(url, timeoutMs);
  } catch (error) {
    throw discoveryFailed(url, error instanceof Error ? error.message : String(error), error);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw discoveryFailed(url, 'it is not a JSON object');
  const { issuer: stated, jwks_uri: jwksUri } = document as { issuer?: unknown; jwks_uri?: unknown };
  if (stated !== issuer) {
    throw discoveryFailed(url, `its "issuer" is ${JSON.stringify(stated ?? null)}, not the configured issuer ${JSON.stringify(issuer)}; they must match exactly`);
  }
  if (typeof jwksUri !== 'string') throw discoveryFailed(url, `it has no "jwks_uri" string (got ${JSON.stringify(jwksUri ?? null)})`);
  let jwks: URL;
  try {
    jwks = new URL(jwksUri);
  } catch (error) {
    throw discoveryFailed(url, `its "jwks_uri" ${JSON.stringify(jwksUri)} is not a URL`, error);
  }
  if (jwks.protocol !== 'https:' && jwks.protocol !== 'http:') throw discoveryFailed(url, `its "jwks_uri" ${JSON.stringify(jwksUri)} is not an http(s) URL`);
  return jwks;
}
