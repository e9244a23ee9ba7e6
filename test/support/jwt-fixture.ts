import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';

/** A signing key pair whose public half sits in a JWKS file, and a way to sign tokens with it. */
export interface JwtFixture {
  /** The JWKS file holding the public key (`kid: test-key`). */
  readonly jwksFile: string;
  readonly issuer: string;
  readonly audience: string;
  /**
   * A signed token (ES256, `kid: test-key`) for the fixture's issuer and audience, expiring an hour after
   * `nowSeconds`; `claims` add or override claims, `key` signs with another key.
   */
  sign(claims?: JWTPayload, options?: { key?: CryptoKey; nowSeconds?: number; expiresInSeconds?: number }): Promise<string>;
}

/** Generates an ES256 key pair and writes its public JWK as `<dir>/jwks.json`. */
export async function makeJwtFixture(dir: string): Promise<JwtFixture> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' };
  const jwksFile = join(dir, 'jwks.json');
  await writeFile(jwksFile, JSON.stringify({ keys: [jwk] }));
  const issuer = 'https://issuer.example';
  const audience = 'sluice';
  return {
    jwksFile,
    issuer,
    audience,
    async sign(claims = {}, options = {}) {
      const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, aud: audience, sub: 'alice', iat: now, exp: now + (options.expiresInSeconds ?? 3600), ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'test-key' })
        .sign(options.key ?? privateKey);
    },
  };
}

/** An unsigned token (`alg: none`) with the given claims. */
export function unsignedToken(claims: JWTPayload): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

/** `token` with its payload replaced by `claims` and its signature kept: the signature no longer matches. */
export function tamperedToken(token: string, claims: JWTPayload): string {
  const [header, , signature] = token.split('.');
  return `${header ?? ''}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature ?? ''}`;
}
