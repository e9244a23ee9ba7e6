import { TraceFlags, isSpanContextValid, trace, type Attributes, type Context, type Link, type SpanKind } from '@opentelemetry/api';
import { SamplingDecision, type Sampler, type SamplingResult } from '@opentelemetry/sdk-trace-base';

const SAMPLED: SamplingResult = Object.freeze({ decision: SamplingDecision.RECORD_AND_SAMPLED });

/**
 * `sampler`, except that a root span linked to a sampled span is sampled too. A batch's `batch.execute`
 * is the root of a trace of its own, linked to the request spans it serves; left to a ratio (or
 * `always_off`) root sampler, it was dropped for most sampled requests, whose traces then lost their
 * batch. Spans with a parent, and roots without sampled links, are decided by `sampler` alone.
 */
export class SampledLinksSampler implements Sampler {
  constructor(private readonly sampler: Sampler) {}

  shouldSample(context: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    if (links.length > 0 && isRoot(context) && links.some((link) => (link.context.traceFlags & TraceFlags.SAMPLED) !== 0)) return SAMPLED;
    return this.sampler.shouldSample(context, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `SampledLinksSampler{${this.sampler.toString()}}`;
  }
}

/** Whether a span started in `context` is a root: no valid parent (as the parent-based samplers decide). */
function isRoot(context: Context): boolean {
  const parent = trace.getSpanContext(context);
  return parent === undefined || !isSpanContextValid(parent);
}
