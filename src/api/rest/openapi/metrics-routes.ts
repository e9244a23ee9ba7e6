import { DESCRIPTION_ROUTES } from './description-routes.js';
import type { RouteDoc } from './route-doc.js';
import { schemaRef } from './schemas/json-schema.js';

/** Every route of the metrics port. */
export const METRICS_ROUTES: readonly RouteDoc[] = [
  ...DESCRIPTION_ROUTES,
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    tag: 'Metrics',
    query: [
      {
        name: 'name[]',
        description: 'Only this metric (or sample name); repeat it for several, as TorchServe takes it. Unknown names are ignored.',
        schema: { type: 'array', items: { type: 'string' } },
        explode: true,
      },
    ],
    answers: { '200': { description: 'The metrics.', content: { 'text/plain; version=0.0.4': schemaRef('PrometheusText') } } },
    errors: [],
  },
];
