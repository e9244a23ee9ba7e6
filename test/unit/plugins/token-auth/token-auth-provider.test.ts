import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createTokenAuth, tokenAuthOptions, type KeyFileContent, type TokenAuth } from '../../../../plugins/token-auth/index.js';
import { authRequest, bearer } from '../../../support/auth-request.js';
import { emptyEndpointContext, endpointRequest } from '../../../support/fake-plugin-context.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { makeTempDir } from '../../../support/temp-dir.js';

const MINUTE = 60_000;

describe('token-auth keys', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let clock: number;
  let auth: TokenAuth;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    clock = Date.parse('2030-01-01T00:00:00Z');
    auth = await createTokenAuth(tokenAuthOptions({ expirationMinutes: 60 }, dir), new RecordingLogger(), () => clock);
  });
  afterEach(() => cleanup());

  const key = (type: 'inference' | 'management' | 'api'): string => auth.keys.current(type).key;
  const rotate = (type: string, token: string) => auth.endpoint.handle(endpointRequest(auth.endpoint, { type }, bearer(token)), emptyEndpointContext());

  it('accepts the inference key on the inference API', async () => {
    await expect(auth.provider.authenticate(authRequest('inference', bearer(key('inference'))))).resolves.toEqual({ subject: 'inference key', scopes: ['inference'] });
  });

  it('accepts the management key on the management and metrics APIs', async () => {
    await expect(auth.provider.authenticate(authRequest('management', bearer(key('management'))))).resolves.toMatchObject({ scopes: ['management', 'metrics'] });
    await expect(auth.provider.authenticate(authRequest('metrics', bearer(key('management'))))).resolves.toMatchObject({ subject: 'management key' });
  });

  it('refuses a request without a token with SLUICE_AUTH_MISSING_CREDENTIALS', async () => {
    await expect(auth.provider.authenticate(authRequest('inference'))).rejects.toMatchObject({ code: 'SLUICE_AUTH_MISSING_CREDENTIALS' });
  });

  it('refuses an Authorization header of another scheme with SLUICE_AUTH_INVALID_CREDENTIALS', async () => {
    await expect(auth.provider.authenticate(authRequest('inference', { authorization: `Basic ${key('inference')}` }))).rejects.toMatchObject({
      code: 'SLUICE_AUTH_INVALID_CREDENTIALS',
    });
  });

  it('refuses a wrong token with SLUICE_AUTH_INVALID_CREDENTIALS', async () => {
    await expect(auth.provider.authenticate(authRequest('inference', bearer(`${key('inference')}x`)))).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
  });

  it('refuses the management key on the inference API with SLUICE_AUTH_FORBIDDEN', async () => {
    await expect(auth.provider.authenticate(authRequest('inference', bearer(key('management'))))).rejects.toMatchObject({
      code: 'SLUICE_AUTH_FORBIDDEN',
      category: 'PERMISSION_DENIED',
    });
  });

  it('refuses the inference key and the API key on the management API with SLUICE_AUTH_FORBIDDEN', async () => {
    await expect(auth.provider.authenticate(authRequest('management', bearer(key('inference'))))).rejects.toMatchObject({ code: 'SLUICE_AUTH_FORBIDDEN' });
    await expect(auth.provider.authenticate(authRequest('management', bearer(key('api'))))).rejects.toMatchObject({ code: 'SLUICE_AUTH_FORBIDDEN' });
  });

  it('refuses a key past its expiry with SLUICE_AUTH_EXPIRED_CREDENTIALS', async () => {
    const inference = key('inference');
    clock += 60 * MINUTE - 1;
    await expect(auth.provider.authenticate(authRequest('inference', bearer(inference)))).resolves.toMatchObject({ subject: 'inference key' });
    clock += 1;
    await expect(auth.provider.authenticate(authRequest('inference', bearer(inference)))).rejects.toMatchObject({ code: 'SLUICE_AUTH_EXPIRED_CREDENTIALS' });
  });

  it('GET /token rotates the key: the new one works, the old one gets SLUICE_AUTH_INVALID_CREDENTIALS', async () => {
    const old = key('inference');
    const answer = await rotate('inference', key('api'));
    const body = answer.body as { type: string; key: string; expiresAt: string };
    expect(body).toEqual({ type: 'inference', key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as unknown, expiresAt: '2030-01-01T01:00:00.000Z' });
    expect(body.key).not.toBe(old);
    await expect(auth.provider.authenticate(authRequest('inference', bearer(body.key)))).resolves.toMatchObject({ subject: 'inference key' });
    await expect(auth.provider.authenticate(authRequest('inference', bearer(old)))).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
  });

  it('GET /token renews an expired key with a fresh expiry', async () => {
    clock += 61 * MINUTE;
    const answer = await rotate('management', key('api'));
    const fresh = (answer.body as { key: string }).key;
    await expect(auth.provider.authenticate(authRequest('management', bearer(fresh)))).resolves.toMatchObject({ subject: 'management key' });
  });

  it('GET /token rewrites the key file with the new key and leaves the other keys as they were', async () => {
    const before = JSON.parse(await readFile(auth.keys.keyFile, 'utf8')) as KeyFileContent;
    const answer = await rotate('management', key('api'));
    const after = JSON.parse(await readFile(auth.keys.keyFile, 'utf8')) as KeyFileContent;
    expect(after).toEqual({ ...before, management: { key: (answer.body as { key: string }).key, expiresAt: '2030-01-01T01:00:00.000Z' } });
    expect(auth.keys.keyFile).toBe(join(dir, '.sluice', 'key_file.json'));
  });

  it('GET /token without a token is refused with SLUICE_AUTH_MISSING_CREDENTIALS', async () => {
    await expect(auth.endpoint.handle(endpointRequest(auth.endpoint, { type: 'inference' }), emptyEndpointContext())).rejects.toMatchObject({
      code: 'SLUICE_AUTH_MISSING_CREDENTIALS',
    });
  });

  it('GET /token with the management key instead of the API key is refused with SLUICE_AUTH_FORBIDDEN and rotates nothing', async () => {
    const old = key('inference');
    await expect(rotate('inference', key('management'))).rejects.toMatchObject({ code: 'SLUICE_AUTH_FORBIDDEN' });
    expect(key('inference')).toBe(old);
  });

  it('GET /token with an unknown type is refused with SLUICE_REQUEST_INVALID', async () => {
    await expect(rotate('api', key('api'))).rejects.toMatchObject({ code: 'SLUICE_REQUEST_INVALID', message: expect.stringContaining('?type=inference') as unknown });
  });

  it('HEAD /token with the API key is refused with SLUICE_METHOD_NOT_ALLOWED and rotates nothing', async () => {
    const old = key('inference');
    const head = { ...endpointRequest(auth.endpoint, { type: 'inference' }, bearer(key('api'))), method: 'HEAD' };
    await expect(auth.endpoint.handle(head, emptyEndpointContext())).rejects.toMatchObject({ code: 'SLUICE_METHOD_NOT_ALLOWED', details: { allow: 'GET' } });
    expect(key('inference')).toBe(old);
    expect((JSON.parse(await readFile(auth.keys.keyFile, 'utf8')) as KeyFileContent).inference.key).toBe(old);
  });

  it('concurrent rotations each answer a key, and the file holds the last one', async () => {
    const [first, second] = await Promise.all([rotate('inference', key('api')), rotate('inference', key('api'))]);
    const last = (second.body as { key: string }).key;
    expect((first.body as { key: string }).key).not.toBe(last);
    expect((JSON.parse(await readFile(auth.keys.keyFile, 'utf8')) as KeyFileContent).inference.key).toBe(last);
    expect(key('inference')).toBe(last);
  });
});
