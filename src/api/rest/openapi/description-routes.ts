import type { RouteDoc } from './route-doc.js';
import { schemaRef } from './schemas/json-schema.js';

const DESCRIPTION = { '200': { description: 'The OpenAPI 3.1 description of this port.', content: { 'application/json': schemaRef('OpenApiDescription') } } };

/** The routes of every port that serve its own description. */
export const DESCRIPTION_ROUTES: readonly RouteDoc[] = [
  { method: 'options', path: '/', operationId: 'describeApiOptions', summary: 'This OpenAPI description (TorchServe’s way to ask for it)', tag: 'Description', answers: DESCRIPTION, errors: [] },
  { method: 'get', path: '/api-description', operationId: 'describeApi', summary: 'This OpenAPI description', tag: 'Description', answers: DESCRIPTION, errors: [] },
];
