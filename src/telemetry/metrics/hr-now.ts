import type { HrTime } from '@opentelemetry/api';
import { millisToHrTime } from '@opentelemetry/core';

/** Now, as the high-resolution wall-clock time metric points carry. */
export function nowHrTime(): HrTime {
  return millisToHrTime(performance.timeOrigin + performance.now());
}
