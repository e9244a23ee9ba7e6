import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { httpAuthRequest, installAuthGuard, PUBLIC_ROUTE_FLAG, PublicRoutes } from '../../../src/api/rest/auth/index.js';
import { SluiceError } from '../../../src/sdk/errors/index.js';
import type { AuthProvider, AuthRequest } from '../../../src/sdk/auth/auth.js';

/** A provider that lets `Bearer good` through and remembers what it saw. */
function recordingProvider(seen: AuthRequest[]): AuthProvider {
  return {
    name: 'test',
    authenticate(request) {
      seen.push(request);
      if (request.header('authorization') === 'Bearer good') return Promise.resolve({ subject: 'tester', scopes: ['inference'] });
      return Promise.reject(new SluiceError('SLUICE_AUTH_MISSING_CREDENTIALS', 'send a token'));
    },
  };
}

describe('the REST auth guard', () => {
  let fastify: FastifyInstance;
  let seen: AuthRequest[];
  let handled: string[];
  let base: string;
  const send = async (method: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> => {
    const answer = await fetch(`${base}${url}`, { method, headers });
    return { status: answer.status, body: await answer.text() };
  };
  beforeEach(async () => {
    seen = [];
    handled = [];
    fastify = Fastify();
    installAuthGuard(fastify, { api: 'inference', provider: recordingProvider(seen), publicRoutes: new PublicRoutes([{ method: 'GET', url: '/ping' }]) });
    fastify.setErrorHandler((error, _request, reply) => reply.status(401).send({ errorCode: error instanceof SluiceError ? error.code : 'other' }));
    for (const url of ['/ping', '/models/:name', '/open']) {
      fastify.route({ method: ['GET', 'POST'], url, config: url === '/open' ? { [PUBLIC_ROUTE_FLAG]: true } : {}, handler: (request) => (handled.push(request.url), 'ran') });
    }
    base = await fastify.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(() => fastify.close());

  it('refuses a request the provider refuses, before the handler runs', async () => {
    const answer = await send('POST', '/models/iris?x=1');
    expect({ ...answer, handled }).toEqual({ status: 401, body: '{"errorCode":"SLUICE_AUTH_MISSING_CREDENTIALS"}', handled: [] });
  });

  it('gives the provider the API, transport, method, path without the query, and the headers', async () => {
    await send('POST', '/models/iris?x=1', { authorization: 'Bearer good' });
    const [request] = seen;
    expect({ api: request?.api, transport: request?.transport, method: request?.method, path: request?.path, auth: request?.header('Authorization') }).toEqual({
      api: 'inference',
      transport: 'http',
      method: 'POST',
      path: '/models/iris',
      auth: 'Bearer good',
    });
    expect(handled).toEqual(['/models/iris?x=1']);
  });

  it('lets public routes through without asking the provider, HEAD following GET', async () => {
    expect((await send('GET', '/ping')).status).toBe(200);
    expect((await send('HEAD', '/ping')).status).toBe(200);
    expect(seen).toEqual([]);
  });

  it('keeps the other methods of a public path guarded', async () => {
    expect((await send('POST', '/ping')).status).toBe(401);
  });

  it('lets routes flagged public in their config through', async () => {
    expect((await send('POST', '/open')).status).toBe(200);
    expect(seen).toEqual([]);
  });

  it('guards unknown routes', async () => {
    expect((await send('GET', '/nowhere')).status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});

describe('the HTTP request an auth provider sees', () => {
  const request = (rawHeaders: string[]): ReturnType<typeof httpAuthRequest> =>
    httpAuthRequest('inference', { method: 'GET', url: '/', headers: { authorization: rawHeaders[1] }, rawHeaders });

  it('reads an Authorization header sent once as it is', () => {
    expect(request(['Authorization', 'Bearer good']).header('authorization')).toBe('Bearer good');
  });

  it('reads a repeated Authorization header as its values joined, though Node keeps only the first', () => {
    expect(request(['Authorization', 'Bearer good', 'AUTHORIZATION', 'Bearer bad']).header('Authorization')).toBe('Bearer good, Bearer bad');
  });
});
