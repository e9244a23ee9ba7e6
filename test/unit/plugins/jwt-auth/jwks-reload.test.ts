import { readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createJwtAuth, jwtAuthOptions, type JwtAuthProvider } from '../../../../plugins/jwt-auth/index.js';
import { authRequest, bearer } from '../../../support/auth-request.js';
import { makeJwtFixture, type JwtFixture } from '../../../support/jwt-fixture.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { makeTempDir } from '../../../support/temp-dir.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const NOW_S = NOW / 1000;

/** A key pair of its own `kid`: its public JWK, and tokens signed with it. */
interface RotatedKey {
  readonly jwk: JWK;
  sign(): Promise<string>;
}

describe('jwt-auth reading its JWKS file again', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let fixture: JwtFixture;
  let logger: RecordingLogger;
  let clock: number;
  let provider: JwtAuthProvider;
  /** The fixture's key (`kid: test-key`) as the file holds it at start-up. */
  let originalJwk: JWK;

  const start = (extra: Record<string, unknown> = {}): Promise<JwtAuthProvider> =>
    createJwtAuth(jwtAuthOptions({ jwksFile: 'jwks.json', issuer: fixture.issuer, audience: fixture.audience, ...extra }, dir), logger, () => clock);
  const originalToken = (): Promise<string> => fixture.sign({ scope: 'sluice:infer' }, { nowSeconds: NOW_S });
  const verify = (token: string): Promise<unknown> => provider.authenticate(authRequest('inference', bearer(token)));
  const writeKeys = (keys: readonly JWK[]): Promise<void> => writeFile(fixture.jwksFile, JSON.stringify({ keys }));
  const warnings = (): string[] => logger.lines.filter((line) => line.level === 'warn').map((line) => line.message);

  async function newKey(kid: string): Promise<RotatedKey> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    return {
      jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' },
      sign: () =>
        new SignJWT({ iss: fixture.issuer, aud: fixture.audience, sub: 'bob', iat: NOW_S, exp: NOW_S + 3600, scope: 'sluice:infer' })
          .setProtectedHeader({ alg: 'ES256', kid })
          .sign(privateKey),
    };
  }

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    fixture = await makeJwtFixture(dir);
    originalJwk = (JSON.parse(await readFile(fixture.jwksFile, 'utf8')) as { keys: JWK[] }).keys[0] ?? {};
    logger = new RecordingLogger();
    clock = NOW;
    provider = await start();
  });
  afterEach(() => cleanup());

  it('accepts a token of a key added to the file, looking at the file for its unknown kid at most once a second', async () => {
    const added = await newKey('added-key');
    await writeKeys([originalJwk, added.jwk]);
    clock = NOW + 999;
    await expect(verify(await added.sign())).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
    clock = NOW + 1000;
    await expect(verify(await added.sign())).resolves.toEqual({ subject: 'bob', scopes: ['inference'] });
    expect(logger.lines).toContainEqual({ level: 'info', message: 'jwt-auth keys read again: the JWKS file changed', fields: { jwksFile: fixture.jwksFile } });
  });

  it('refuses a token of a key removed from the file once the reload interval has passed', async () => {
    const replacement = await newKey('replacement');
    const token = await originalToken();
    await writeKeys([replacement.jwk]);
    clock = NOW + 59_999;
    await expect(verify(token)).resolves.toMatchObject({ subject: 'alice' });
    clock = NOW + 60_000;
    await expect(verify(token)).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS', message: expect.stringContaining('no applicable key found in the JSON Web Key Set') as unknown });
    await expect(verify(await replacement.sign())).resolves.toMatchObject({ subject: 'bob' });
  });

  it('takes the reload interval from jwksReloadIntervalSeconds', async () => {
    provider = await start({ jwksReloadIntervalSeconds: 5 });
    const token = await originalToken();
    await writeKeys([(await newKey('replacement')).jwk]);
    clock = NOW + 4_999;
    await expect(verify(token)).resolves.toMatchObject({ subject: 'alice' });
    clock = NOW + 5_000;
    await expect(verify(token)).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
  });

  it('does not look at the file between intervals, not even for unknown kids within a second of the last look', async () => {
    await rm(fixture.jwksFile);
    const unknown = await newKey('unknown');
    clock = NOW + 999;
    await expect(verify(await unknown.sign())).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
    clock = NOW + 59_999;
    await expect(verify(await originalToken())).resolves.toMatchObject({ subject: 'alice' });
    expect(warnings()).toEqual([]);
  });

  it.each([
    ['is not JSON', '{"keys": [', /: Unexpected end of JSON input$/],
    ['holds no keys', '{"keys": []}', /: it must be a JSON object with a non-empty "keys" list$/],
    ['holds a secret key', '{"keys": [{"kty": "oct", "k": "c2VjcmV0", "kid": "s"}]}', /: key 0 \(kid "s"\) is a secret \(oct\) key; the file must hold public keys only$/],
  ])('keeps the keys in use when the changed file %s, with one warning naming the file and the problem', async (_what, text, problem) => {
    await writeFile(fixture.jwksFile, text);
    const token = await originalToken();
    clock = NOW + 60_000;
    await expect(verify(token)).resolves.toMatchObject({ subject: 'alice' });
    clock = NOW + 120_000;
    await expect(verify(token)).resolves.toMatchObject({ subject: 'alice' });
    const [warning, ...more] = warnings();
    expect(more).toEqual([]);
    const prefix = `jwt-auth: cannot use the JWKS file ${fixture.jwksFile}: `;
    const suffix = '; the keys read before stay in use until the file is fixed';
    expect(warning?.startsWith(prefix) && warning.endsWith(suffix)).toBe(true);
    expect(warning?.slice(0, -suffix.length)).toMatch(problem);
    expect(logger.lines.find((line) => line.level === 'warn')?.fields).toEqual({ jwksFile: fixture.jwksFile });
  });

  it('keeps the keys in use while the file is gone, with one warning, and reads it again once it is back', async () => {
    await rm(fixture.jwksFile);
    const token = await originalToken();
    clock = NOW + 60_000;
    await expect(verify(token)).resolves.toMatchObject({ subject: 'alice' });
    clock = NOW + 120_000;
    await expect(verify(token)).resolves.toMatchObject({ subject: 'alice' });
    expect(warnings()).toEqual([
      `jwt-auth: cannot use the JWKS file ${fixture.jwksFile}: ENOENT: no such file or directory, open '${fixture.jwksFile}'; the keys read before stay in use until the file is fixed`,
    ]);
    const replacement = await newKey('replacement');
    await writeKeys([replacement.jwk]);
    clock = NOW + 180_000;
    await expect(verify(token)).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
    await expect(verify(await replacement.sign())).resolves.toMatchObject({ subject: 'bob' });
  });

  it('notices a file replaced by rename even when it has the size and mtime of the one before', async () => {
    const sameTime = new Date('2029-06-01T00:00:00Z');
    await utimes(fixture.jwksFile, sameTime, sameTime);
    provider = await start();
    // The same kid and a key of the same curve: a file of the same size.
    const swapped = await newKey('test-key');
    const next = join(dir, 'jwks.next.json');
    await writeFile(next, JSON.stringify({ keys: [swapped.jwk] }));
    await utimes(next, sameTime, sameTime);
    expect((await readFile(next)).length).toBe((await readFile(fixture.jwksFile)).length);
    await rename(next, fixture.jwksFile);
    clock = NOW + 60_000;
    await expect(verify(await originalToken())).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
    await expect(verify(await swapped.sign())).resolves.toMatchObject({ subject: 'bob' });
  });

  it('reads the file at start-up only when jwksReloadIntervalSeconds is 0', async () => {
    provider = await start({ jwksReloadIntervalSeconds: 0 });
    const added = await newKey('added-key');
    await writeKeys([added.jwk]);
    clock = NOW + 600_000;
    await expect(verify(await originalToken())).resolves.toMatchObject({ subject: 'alice' });
    await expect(verify(await added.sign())).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
  });

  it.each([-1, 1.5, '60'])('refuses a jwksReloadIntervalSeconds of %j, naming the key', (value) => {
    expect(() => jwtAuthOptions({ jwksFile: 'jwks.json', issuer: 'i', audience: 'a', jwksReloadIntervalSeconds: value }, dir)).toThrow(
      expect.objectContaining({ code: 'SLUICE_PLUGIN_INVALID', message: expect.stringContaining('`config.jwksReloadIntervalSeconds` must be an integer >= 0') as unknown }),
    );
  });
});
