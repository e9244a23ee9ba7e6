import { closedObject, type JsonSchema } from './json-schema.js';

/** Bodies as bytes, and the answers of the description, metrics and key-rotation routes. */
export function serverSchemas(): Record<string, JsonSchema> {
  return {
    OpenApiDescription: {
      description: 'This document: the OpenAPI 3.1 description of the port (https://spec.openapis.org/oas/v3.1.0).',
      type: 'object',
      required: ['openapi', 'info', 'paths'],
      properties: { openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' }, info: { type: 'object' }, paths: { type: 'object' } },
    },
    Bytes: { description: 'A body as bytes, read or written by the model’s handler or envelope.', type: 'string', format: 'binary' },
    PrometheusText: { description: 'Metrics in the Prometheus text format 0.0.4 (docs/api.md lists them).', type: 'string' },
    RotatedKey: closedObject('The key that replaced the old one (which is refused from now on), and when it expires.', {
      type: { type: 'string', enum: ['inference', 'management'] },
      key: { type: 'string', minLength: 1 },
      expiresAt: { description: 'null: the key does not expire.', type: ['string', 'null'], format: 'date-time' },
    }),
  };
}
