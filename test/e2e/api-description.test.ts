import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RegisteredRoute } from '../../src/api/rest/http-app.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
}

/** `METHOD /path/{}` with parameter names erased; a verb glued to a parameter (`{model}:predict`) is one segment. */
function normalise(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]+\}(:[a-z]+)?/g, '{}').replace(/:[A-Za-z]+/g, '{}')}`;
}

function documented(doc: OpenApi): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, operations]) => Object.keys(operations).map((method) => normalise(method, path)))
    .sort();
}

function registered(routes: readonly RegisteredRoute[]): string[] {
  return [...new Set(routes.map((r) => normalise(r.method, r.url)))].sort();
}

describe('API descriptions', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ demoModels: [] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves an OpenAPI 3 document at OPTIONS / and GET /api-description on the inference port', async () => {
    const viaOptions = await requestJson(`${t.inference}/`, { method: 'OPTIONS' });
    const viaGet = await requestJson(`${t.inference}/api-description`);
    expect(viaOptions.status).toBe(200);
    expect((viaOptions.body as OpenApi).openapi).toMatch(/^3\./);
    expect(viaGet.body).toEqual(viaOptions.body);
  });

  it('documents exactly the routes the inference port registers', async () => {
    const doc = (await requestJson(`${t.inference}/api-description`)).body as OpenApi;
    expect(registered(t.server.inference.routes)).toContain('POST /v2/models/{}/versions/{}/infer');
    expect(documented(doc)).toEqual(registered(t.server.inference.routes));
  });

  it('documents exactly the routes the management port registers', async () => {
    const doc = (await requestJson(`${t.management}/`, { method: 'OPTIONS' })).body as OpenApi;
    expect(registered(t.server.management.routes)).toContain('PUT /models/{}/{}/set-default');
    expect(documented(doc)).toEqual(registered(t.server.management.routes));
  });
});
