import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { RegisteredRoute } from '../../src/api/rest/http-app.js';
import type { KeyFileContent } from '../../plugins/token-auth/index.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
}

type Port = 'inference' | 'management' | 'metrics';
const PORTS: readonly Port[] = ['inference', 'management', 'metrics'];

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

  it('documents exactly the routes the metrics port registers, its description included', async () => {
    const doc = (await requestJson(`${t.metrics}/api-description`)).body as OpenApi;
    expect(registered(t.server.metrics.routes)).toEqual(['GET /api-description', 'GET /metrics', 'OPTIONS /']);
    expect(documented(doc)).toEqual(registered(t.server.metrics.routes));
  });

  it.each(PORTS)('serves on the %s port a description the OpenAPI 3.1 schema validator accepts', async (port) => {
    const { status, body } = await requestJson(`${t[port]}/api-description`);
    expect(status).toBe(200);
    expect((body as OpenApi).openapi).toBe('3.1.0');
    expect(await new Validator().validate(body as Record<string, unknown>)).toEqual({ valid: true });
  });
});

describe('API descriptions of ports token-auth guards', () => {
  let t: TestServer;
  const keys = (): Promise<KeyFileContent> => readFile(join(t.dir, '.sluice', 'key_file.json'), 'utf8').then((text) => JSON.parse(text) as KeyFileContent);
  const described = async (port: Port): Promise<OpenApi & { components: Record<string, unknown> }> => {
    const key = (await keys())[port === 'inference' ? 'inference' : 'management'].key;
    const { status, body } = await requestJson(`${t[port]}/api-description`, { headers: { authorization: `Bearer ${key}` } });
    expect(status).toBe(200);
    return body as OpenApi & { components: Record<string, unknown> };
  };

  beforeAll(async () => {
    t = await startTestServer({ demoModels: [], auth: { inference: 'token-auth', management: 'token-auth', metrics: 'token-auth' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses the description to a client without a key, as every guarded route', async () => {
    expect(await requestJson(`${t.management}/api-description`)).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS' } });
  });

  it.each(PORTS)('serves on the %s port a valid OpenAPI 3.1 description with the bearer scheme', async (port) => {
    const doc = await described(port);
    expect(await new Validator().validate(doc as unknown as Record<string, unknown>)).toEqual({ valid: true });
    expect(doc.components['securitySchemes']).toMatchObject({ bearer: { type: 'http', scheme: 'bearer' } });
  });

  it('documents the management port’s routes and token-auth’s key rotation, the one plugin route it serves', async () => {
    expect(documented(await described('management'))).toEqual([...registered(t.server.management.routes), 'GET /token'].sort());
  });
});
