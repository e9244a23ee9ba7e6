import { bearerToken, SluiceError, type Endpoint, type EndpointRequest, type EndpointResponse } from '../../src/sdk/index.js';
import type { TokenKeyService } from './token-key-service.js';
import { ROTATABLE_KEY_TYPES, type RotatableKeyType } from './token-keys.js';

function keyType(request: EndpointRequest): RotatableKeyType {
  // Refused as on every management route: another parameter (a typo), or `type` given twice, whose first
  // value would otherwise decide which key is rotated.
  const type = request.checkedQuery(['type'])['type'];
  const known = ROTATABLE_KEY_TYPES.find((candidate) => candidate === type);
  if (known === undefined) {
    throw new SluiceError('SLUICE_REQUEST_INVALID', `GET /token needs ?type=inference or ?type=management (got ${JSON.stringify(type ?? null)})`, {
      parameter: 'type',
    });
  }
  return known;
}

/**
 * `GET /token?type=inference|management` on the management API: rotates that key and answers the new one
 * with its expiry. It is public to the management guard because it authenticates with the API key itself;
 * any other key gets 403, a HEAD request 405 before anything rotates, and a query with another parameter,
 * or `type` twice, 400 `SLUICE_MANAGEMENT_INVALID_ARGUMENT` as on the management API's own routes. `keysOf` gives the keys, or
 * throws while token-auth guards no API.
 */
export function tokenEndpoint(keysOf: () => TokenKeyService): Endpoint {
  return {
    name: 'token',
    api: 'management',
    method: 'GET',
    path: '/token',
    public: true,
    async handle(request): Promise<EndpointResponse> {
      const keys = keysOf();
      // The server answers HEAD from a GET route; a HEAD must change nothing, and its answer could not carry the new key.
      if (request.method !== 'GET') {
        throw new SluiceError('SLUICE_METHOD_NOT_ALLOWED', `${request.method} /token is not allowed: it rotates a key, so only GET takes it`, { allow: 'GET' });
      }
      keys.verify(bearerToken(request), 'api');
      const type = keyType(request);
      const issued = await keys.rotate(type);
      return {
        body: { type, key: issued.key, expiresAt: issued.expiresAt === null ? null : new Date(issued.expiresAt).toISOString() },
        headers: { 'cache-control': 'no-store' },
      };
    },
  };
}
