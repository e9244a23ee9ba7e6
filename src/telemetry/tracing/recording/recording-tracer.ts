import { INVALID_SPAN_CONTEXT, SpanKind, type Attributes, type Link, TraceFlags, context, trace, type Context, type Span, type SpanContext, type SpanOptions, type Tracer } from '@opentelemetry/api';
import { isTracingSuppressed, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import { AlwaysOnSampler, SamplingDecision, type Sampler, type SamplingResult, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startActiveSpan } from '../active-span.js';
import { epochMillisOf, RecordedSpan } from './recorded-span.js';
import { RecordedSpanContext } from './recorded-span-context.js';
import { newTraceId, randomUint32 } from './span-ids.js';
import { TraceId } from './trace-id.js';

/** What a span started without links or attributes shows its sampler (shared: most spans have neither). */
const NO_LINKS: Link[] = Object.freeze([]) as unknown as Link[];
const NO_ATTRIBUTES: Attributes = Object.freeze({});
/** The decisions a sampler that keeps no attributes and no trace state of its own makes. */
const SAMPLED: SamplingResult = Object.freeze({ decision: SamplingDecision.RECORD_AND_SAMPLED });
const NOT_SAMPLED: SamplingResult = Object.freeze({ decision: SamplingDecision.NOT_RECORD });

/** What a {@link RecordingTracer} needs: where its spans come from and where they go. */
export interface RecordingTracerOptions {
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
  readonly sampler: Sampler;
  /**
   * True when `sampler` is parent-based with the SDK's default choice for a parent (sample exactly when the
   * parent was sampled): a span whose parent this server recorded then takes its parent's decision without
   * asking the sampler, which would spell the parent's ids in hex to check them.
   */
  readonly followsParent?: boolean;
  /** Told of every sampled span when it starts and when it ends (the SDK's processors and exporters work here). */
  readonly processors: readonly SpanProcessor[];
}

/**
 * The tracer of a server. It follows the SDK's tracer (the sampler decides, unsampled spans only carry
 * their context on, processors see every recorded span) but records into {@link RecordedSpan}s, which
 * cost a fraction of the SDK's spans: a traced request starts several spans, and on a batching server
 * their cost is a large share of a request's. Spans are parented on the context they are given, or the
 * active one.
 */
export class RecordingTracer implements Tracer {
  /** The sampler is the SDK's AlwaysOnSampler itself (not a subclass): not asked, it would make the same answer anew for every span. */
  private readonly alwaysSamples: boolean;

  constructor(private readonly options: RecordingTracerOptions) {
    this.alwaysSamples = options.sampler.constructor === AlwaysOnSampler;
  }

  startSpan(name: string, spanOptions: SpanOptions = {}, parentContext: Context = context.active()): Span {
    // A root span's sampler and processors must not see the context's span as its parent either.
    if (spanOptions.root === true) parentContext = trace.deleteSpan(parentContext);
    if (isTracingSuppressed(parentContext)) return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    const parent = validParent(trace.getSpanContext(parentContext));
    const traceId = traceIdOf(parent);
    const kind = spanOptions.kind ?? SpanKind.INTERNAL;
    const links = spanOptions.links ?? NO_LINKS;
    const attributes = spanOptions.attributes ?? NO_ATTRIBUTES;
    const sampling = this.sample(parentContext, parent, traceId, name, kind, attributes, links);
    const high = randomUint32();
    const low = randomUint32() || 1;
    const traceFlags = sampling.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE;
    const spanContext = new RecordedSpanContext(traceId, high, low, traceFlags, sampling.traceState ?? parent?.traceState);
    if (sampling.decision === SamplingDecision.NOT_RECORD) return trace.wrapSpanContext(spanContext);
    const span = new RecordedSpan({
      name,
      kind,
      context: spanContext,
      parent,
      startMillis: epochMillisOf(spanOptions.startTime),
      attributes: sampling.attributes === undefined ? attributes : { ...attributes, ...sampling.attributes },
      links: spanOptions.links,
      resource: this.options.resource,
      scope: this.options.scope,
      processors: this.options.processors,
    });
    for (const processor of this.options.processors) processor.onStart(span, parentContext);
    return span;
  }

  /** What the sampler decides for a new span, without asking it where the answer is known. */
  private sample(parentContext: Context, parent: SpanContext | undefined, traceId: TraceId, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    if (this.alwaysSamples) return SAMPLED;
    if (this.options.followsParent === true && parent instanceof RecordedSpanContext) return (parent.traceFlags & TraceFlags.SAMPLED) !== 0 ? SAMPLED : NOT_SAMPLED;
    return this.options.sampler.shouldSample(parentContext, traceId.hex, name, kind, attributes, links);
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> {
    return startActiveSpan((n, options, parent) => this.startSpan(n, options, parent), name, rest, () => context.active()) as ReturnType<F>;
  }

  /** Sends what the processors buffer. */
  async forceFlush(): Promise<void> {
    await Promise.all(this.options.processors.map((p) => p.forceFlush()));
  }

  /** Flushes and stops the processors. */
  async shutdown(): Promise<void> {
    await Promise.all(this.options.processors.map((p) => p.shutdown()));
  }
}

/** `parent` when it is a valid context to continue; the contexts of recorded spans are valid by construction (and checking would spell their ids). */
function validParent(parent: SpanContext | undefined): SpanContext | undefined {
  if (parent === undefined) return undefined;
  return parent instanceof RecordedSpanContext || trace.isSpanContextValid(parent) ? parent : undefined;
}

/** The trace id a span continues: its parent's (shared, when this server recorded the parent), or a new one. */
function traceIdOf(parent: SpanContext | undefined): TraceId {
  if (parent === undefined) return newTraceId();
  if (parent instanceof RecordedSpanContext) return parent.trace;
  // A valid context's trace id is 32 hex digits, so it always reads.
  return TraceId.fromHex(parent.traceId) ?? newTraceId();
}
