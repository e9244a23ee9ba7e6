import type { RouteDoc } from './route-doc.js';

/** Every route of the metrics port. */
export const METRICS_ROUTES: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics',
    tag: 'Metrics',
    query: [{ name: 'name[]', type: 'string', description: 'Only this metric (or sample name); repeat for several, as TorchServe takes it' }],
    produces: 'text/plain; version=0.0.4',
  },
];
