import {
  SpanStatusCode,
  type Attributes,
  type AttributeValue,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanContext,
  type SpanKind,
  type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';
import { isAttributeValue as isCoreAttributeValue, sanitizeAttributes, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { ATTR_EXCEPTION_MESSAGE, ATTR_EXCEPTION_STACKTRACE, ATTR_EXCEPTION_TYPE } from '@opentelemetry/semantic-conventions';

/** Most attributes, events and links one span keeps (the specification's default limits); more are counted as dropped. */
export const SPAN_LIMIT = 128;

const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });
const NO_ATTRIBUTES: Attributes = Object.freeze({});
const NO_LINKS: Link[] = Object.freeze([]) as unknown as Link[];
const NO_EVENTS: TimedEvent[] = Object.freeze([]) as unknown as TimedEvent[];

/** When this thread's monotonic clock started, in epoch milliseconds: fixed for its life, and read through a getter. */
const TIME_ORIGIN = performance.timeOrigin;

/** Milliseconds since the epoch, with sub-millisecond precision, from the monotonic clock. */
export function nowEpochMillis(): number {
  return TIME_ORIGIN + performance.now();
}

/**
 * A time the API accepts (epoch or performance milliseconds, `[s, ns]`, a Date) as epoch milliseconds. A
 * number is read as the SDK reads it: performance milliseconds when it is not past the monotonic clock's
 * reading, epoch milliseconds otherwise (so an epoch time from before the process started stays one).
 */
export function epochMillisOf(time: TimeInput | undefined): number {
  if (time === undefined) return nowEpochMillis();
  if (typeof time === 'number') return time <= performance.now() ? TIME_ORIGIN + time : time;
  if (time instanceof Date) return time.getTime();
  return time[0] * 1000 + time[1] / 1e6;
}

/** Epoch milliseconds as `[seconds, nanoseconds]`. */
export function hrTimeOf(epochMillis: number): HrTime {
  const seconds = Math.floor(epochMillis / 1000);
  return [seconds, Math.min(999_999_999, Math.round((epochMillis - seconds * 1000) * 1e6))];
}

/** A primitive, or an array of one primitive type (with nulls): what an attribute may hold. */
function isAttributeValue(value: unknown): value is AttributeValue {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return true;
    default:
      return Array.isArray(value) && isCoreAttributeValue(value);
  }
}

/** What a span is made of when it starts. */
export interface RecordedSpanStart {
  readonly name: string;
  readonly kind: SpanKind;
  readonly context: SpanContext;
  readonly parent: SpanContext | undefined;
  readonly startMillis: number;
  readonly attributes: Attributes | undefined;
  readonly links: readonly Link[] | undefined;
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
  readonly processors: readonly SpanProcessor[];
}

/**
 * A sampled span, as the tracer records it: what the API lets instrumented code do with a span, and
 * what span processors and exporters read once it ends. It keeps times as epoch milliseconds and
 * allocates links, events and a status only when they are used, so an ordinary span is one object,
 * its attributes and its context.
 */
export class RecordedSpan implements Span, ReadableSpan {
  name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  /** Shared and empty until the first attribute is set (most spans have none). */
  attributes: Attributes = NO_ATTRIBUTES;
  links: Link[] = NO_LINKS;
  events: TimedEvent[] = NO_EVENTS;
  status: SpanStatus = UNSET;
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  /** When the span started, in epoch milliseconds. */
  readonly startMillis: number;
  /** When the span ended, in epoch milliseconds; NaN while it runs. */
  endMillis = Number.NaN;
  private attributeCount = 0;
  private readonly context: SpanContext;
  private readonly processors: readonly SpanProcessor[];

  constructor(start: RecordedSpanStart) {
    this.name = start.name;
    this.kind = start.kind;
    this.context = start.context;
    this.parentSpanContext = start.parent;
    this.startMillis = start.startMillis;
    this.resource = start.resource;
    this.instrumentationScope = start.scope;
    this.processors = start.processors;
    if (start.attributes !== undefined) this.setAttributes(start.attributes);
    if (start.links !== undefined) this.addLinks(start.links);
  }

  spanContext(): SpanContext {
    return this.context;
  }

  get startTime(): HrTime {
    return hrTimeOf(this.startMillis);
  }

  get endTime(): HrTime {
    return this.ended ? hrTimeOf(this.endMillis) : [0, 0];
  }

  get duration(): HrTime {
    if (!this.ended) return [-1, -1];
    const nanos = Math.max(0, Math.round((this.endMillis - this.startMillis) * 1e6));
    return [Math.floor(nanos / 1e9), nanos % 1e9];
  }

  get ended(): boolean {
    return !Number.isNaN(this.endMillis);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (this.ended || key.length === 0 || !isAttributeValue(value)) return this;
    if (this.attributes === NO_ATTRIBUTES) this.attributes = {};
    const attributes = this.attributes as Record<string, AttributeValue>;
    if (!Object.hasOwn(attributes, key)) {
      if (this.attributeCount >= SPAN_LIMIT) {
        this.droppedAttributesCount++;
        return this;
      }
      this.attributeCount++;
    }
    attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) {
      if (Object.hasOwn(attributes, key)) this.setAttribute(key, attributes[key]);
    }
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    // As the SDK does: past the limit the oldest event gives way, so the latest (an error) is kept.
    if (this.events.length >= SPAN_LIMIT) {
      this.events.shift();
      this.droppedEventsCount++;
    }
    const isTime = attributesOrTime instanceof Date || typeof attributesOrTime === 'number' || Array.isArray(attributesOrTime);
    const attributes = isTime ? undefined : attributesOrTime;
    const at = epochMillisOf(isTime ? attributesOrTime : time);
    if (this.events === NO_EVENTS) this.events = [];
    this.events.push({ name, attributes: sanitizeAttributes(attributes), time: hrTimeOf(at), droppedAttributesCount: 0 });
    return this;
  }

  addLink(link: Link): this {
    if (this.ended) return this;
    if (this.links.length >= SPAN_LIMIT) {
      this.droppedLinksCount++;
      return this;
    }
    if (this.links === NO_LINKS) this.links = [];
    this.links.push(link);
    return this;
  }

  addLinks(links: readonly Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  /** A status is final once OK; UNSET changes nothing; a message is kept for ERROR only. */
  setStatus(status: SpanStatus): this {
    if (this.ended || this.status.code === SpanStatusCode.OK || status.code === SpanStatusCode.UNSET) return this;
    this.status = status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  /** Records `exception` as an `exception` event with its type, message and stack. */
  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') {
      attributes[ATTR_EXCEPTION_MESSAGE] = exception;
    } else {
      const type = exception.code ? String(exception.code) : exception.name;
      if (type) attributes[ATTR_EXCEPTION_TYPE] = type;
      if (exception.message) attributes[ATTR_EXCEPTION_MESSAGE] = exception.message;
      if (exception.stack) attributes[ATTR_EXCEPTION_STACKTRACE] = exception.stack;
    }
    if (attributes[ATTR_EXCEPTION_TYPE] || attributes[ATTR_EXCEPTION_MESSAGE]) this.addEvent('exception', attributes, time);
  }

  /** Ends the span (once) and hands it to every processor. */
  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.endMillis = Math.max(this.startMillis, epochMillisOf(endTime));
    for (const processor of this.processors) processor.onEnd(this);
  }
}
