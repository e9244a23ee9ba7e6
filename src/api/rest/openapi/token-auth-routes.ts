import type { RouteDoc } from './route-doc.js';
import { schemaRef } from './schemas/json-schema.js';

/** The name of the built-in auth provider whose plugin serves {@link TOKEN_ROUTE}. */
export const TOKEN_AUTH = 'token-auth';

/**
 * token-auth's key rotation, an endpoint of its plugin on the management port. It is documented while
 * token-auth guards some API of the server: it answers 404 otherwise, there being no keys to rotate.
 */
export const TOKEN_ROUTE: RouteDoc = {
  method: 'get',
  path: '/token',
  operationId: 'rotateKey',
  summary: 'Rotate the inference or management key of token-auth; takes the API key',
  tag: 'Auth',
  access: 'own',
  query: [{ name: 'type', required: true, description: 'The key to replace.', schema: { type: 'string', enum: ['inference', 'management'] } }],
  answers: { '200': { description: 'The new key; the old one is refused from now on.', content: { 'application/json': schemaRef('RotatedKey') } } },
  errors: [400],
};
