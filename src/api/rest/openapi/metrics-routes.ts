import type { RouteDoc } from './route-doc.js';

/** Every route of the metrics port. */
export const METRICS_ROUTES: readonly RouteDoc[] = [
  { method: 'get', path: '/metrics', summary: 'Prometheus metrics', tag: 'Metrics', produces: 'text/plain; version=0.0.4' },
];
