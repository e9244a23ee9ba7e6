import { describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { OPEN_HEALTH_ROUTES } from '../../../../../src/api/rest/auth/public-routes.js';
import { describeApi } from '../../../../../src/api/rest/openapi/api-description.js';
import type { OpenApiDocument } from '../../../../../src/api/rest/openapi/openapi-document.js';
import type { AuthConfig } from '../../../../../src/config/index.js';
import type { GuardedApi } from '../../../../../src/sdk/auth/auth.js';
import { DescribedApi, type OpenApiDoc, type OperationDoc } from '../../../../support/openapi-conformance.js';

const APIS: readonly GuardedApi[] = ['inference', 'management', 'metrics'];
const OPEN: AuthConfig = { inference: 'none', management: 'none', metrics: 'none' };
const TOKEN: AuthConfig = { inference: 'token-auth', management: 'token-auth', metrics: 'token-auth' };
const JWT: AuthConfig = { inference: 'jwt-auth', management: 'jwt-auth', metrics: 'jwt-auth' };

function operations(document: OpenApiDocument): [string, OperationDoc][] {
  return Object.entries((document as unknown as OpenApiDoc).paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]): [string, OperationDoc] => [`${method.toUpperCase()} ${path}`, op]));
}

describe('the OpenAPI descriptions of the ports', () => {
  it.each(APIS.flatMap((api) => [OPEN, TOKEN, JWT].map((auth) => [api, auth] as const)))('describe the %s port, guarded as %j, in valid OpenAPI 3.1', async (api, auth) => {
    const document = describeApi(api, '1.2.3', auth);
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result).toEqual({ valid: true });
    expect(document.openapi).toBe('3.1.0');
  });

  it.each(APIS)('give the %s port component schemas that compile in JSON Schema 2020-12, strictly', (api) => {
    const described = new DescribedApi(describeApi(api, '1.2.3', TOKEN) as unknown as OpenApiDoc);
    expect(() => {
      described.compileAll();
    }).not.toThrow();
  });

  it.each(APIS)('names every operation of the %s port with a distinct camel-case operationId', (api) => {
    const ids = operations(describeApi(api, '1.2.3', TOKEN)).map(([, op]) => op.operationId);
    expect(ids.filter((id) => !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(APIS)('leave on a guarded %s port exactly the routes open that the auth guard leaves open', (api) => {
    const open = operations(describeApi(api, '1.2.3', TOKEN))
      .filter(([, op]) => op.security?.length === 0)
      .map(([route]) => route)
      .sort();
    expect(open).toEqual(OPEN_HEALTH_ROUTES[api].map((route) => `${route.method} ${route.url}`).sort());
  });

  it.each(APIS)('ask a bearer credential of every other route of a guarded %s port, and document its 401 and 403', (api) => {
    const guarded = operations(describeApi(api, '1.2.3', JWT)).filter(([, op]) => op.security?.length !== 0);
    expect(guarded.length).toBeGreaterThan(0);
    for (const [route, op] of guarded) {
      expect({ route, security: op.security, statuses: ['401', '403'].filter((status) => status in op.responses) }).toEqual({ route, security: [{ bearer: [] }], statuses: ['401', '403'] });
    }
  });

  it.each(APIS)('ask no credential on an open %s port, and have no security scheme', (api) => {
    const document = describeApi(api, '1.2.3', OPEN);
    expect(operations(document).filter(([, op]) => op.security !== undefined || '401' in op.responses)).toEqual([]);
    expect(document.components['securitySchemes']).toBeUndefined();
  });

  it('says a JWT is the bearer credential of a port jwt-auth guards', () => {
    expect(describeApi('inference', '1.2.3', JWT).components['securitySchemes']).toMatchObject({ bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
  });

  it('documents token-auth’s key rotation on the management port while token-auth guards an API, taking the API key even on an open port', () => {
    const rotation = (auth: AuthConfig): OperationDoc | undefined => (describeApi('management', '1.2.3', auth) as unknown as OpenApiDoc).paths['/token']?.['get'];
    expect(rotation(OPEN)).toBeUndefined();
    expect(rotation({ ...OPEN, inference: 'token-auth' })).toMatchObject({ operationId: 'rotateKey', security: [{ bearer: [] }] });
    expect(describeApi('inference', '1.2.3', TOKEN).paths['/token']).toBeUndefined();
  });

  it('documents each port’s errors in its route family’s body: TorchServe’s, or {error, errorCode} under /v1 and /v2', () => {
    const styleOf = (document: OpenApiDocument, route: string): unknown => {
      const [, op] = operations(document).find(([r]) => r === route) ?? [];
      const response = (op?.responses['404'] as { $ref?: string } | undefined)?.$ref ?? '';
      return (document.components['responses']?.[response.split('/').pop() ?? ''] as { content: Record<string, { schema: unknown }> } | undefined)?.content['application/json']?.schema;
    };
    const inference = describeApi('inference', '1.2.3', OPEN);
    expect(styleOf(inference, 'POST /v2/models/{model}/infer')).toEqual({ $ref: '#/components/schemas/OipError' });
    expect(styleOf(inference, 'POST /v1/models/{model}:predict')).toEqual({ $ref: '#/components/schemas/OipError' });
    expect(styleOf(inference, 'POST /predictions/{model}')).toEqual({ $ref: '#/components/schemas/TorchServeError' });
    expect(styleOf(describeApi('management', '1.2.3', OPEN), 'GET /models/{model}')).toEqual({ $ref: '#/components/schemas/TorchServeError' });
  });

  it('holds in each port’s description only the components its routes use', () => {
    const names = (api: GuardedApi): string[] => Object.keys(describeApi(api, '1.2.3', OPEN).components['schemas'] ?? {});
    expect(names('metrics')).not.toContain('OipInferRequest');
    expect(names('management')).not.toContain('OipInferRequest');
    expect(names('inference')).toContain('OipInferRequest');
    expect(names('inference')).not.toContain('ModelList');
  });
});
