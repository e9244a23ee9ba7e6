import { describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace, type Link } from '@opentelemetry/api';
import { AlwaysOffSampler, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import { SampledLinksSampler } from '../../../../src/telemetry/tracing/sampled-links-sampler.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

function link(traceFlags: TraceFlags): Link {
  return { context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags } };
}

describe('SampledLinksSampler', () => {
  it('samples a root span linked to a sampled span, whatever its sampler says of roots', () => {
    const sampler = new SampledLinksSampler(new ParentBasedSampler({ root: new AlwaysOffSampler() }));
    const result = sampler.shouldSample(ROOT_CONTEXT, TRACE_ID, 'batch.execute', SpanKind.INTERNAL, {}, [link(TraceFlags.NONE), link(TraceFlags.SAMPLED)]);
    expect(result.decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });

  it('leaves a root span without a sampled link to its sampler', () => {
    const sampler = new SampledLinksSampler(new TraceIdRatioBasedSampler(0));
    expect(sampler.shouldSample(ROOT_CONTEXT, TRACE_ID, 'batch.execute', SpanKind.INTERNAL, {}, [link(TraceFlags.NONE)]).decision).toBe(SamplingDecision.NOT_RECORD);
  });

  it('leaves a span with a parent to its sampler, sampled links or not', () => {
    const sampler = new SampledLinksSampler(new ParentBasedSampler({ root: new AlwaysOffSampler() }));
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: 'c'.repeat(16), traceFlags: TraceFlags.NONE, isRemote: true });
    expect(sampler.shouldSample(parent, TRACE_ID, 'child', SpanKind.INTERNAL, {}, [link(TraceFlags.SAMPLED)]).decision).toBe(SamplingDecision.NOT_RECORD);
  });
});
