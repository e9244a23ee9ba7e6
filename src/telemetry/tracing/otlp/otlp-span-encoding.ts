import { type Attributes, type Link, type SpanContext, type SpanStatus } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { RecordedSpan } from '../recording/recorded-span.js';
import { RecordedSpanContext } from '../recording/recorded-span-context.js';
import { isPlainSpan, spanFlags, writePlainSpanTail, writeRecordedLink, writeRecordedSpanHead } from './otlp-recorded-span-encoding.js';
import { WIRE, type ProtobufWriter } from './protobuf-writer.js';

/*
 * The OTLP trace messages (opentelemetry/proto/trace/v1/trace.proto), field by field, in the order and
 * with the defaults the OpenTelemetry SDK's own serializer uses, so that collectors see the same bytes.
 */

const MIN_INT64 = -(2 ** 63);
const MAX_INT64 = 2 ** 63;

/** An attribute value, or a member of one (arrays and maps nest), as `AnyValue`. */
function writeAnyValue(w: ProtobufWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      w.tag(1, WIRE.lengthDelimited);
      w.string(value);
      return;
    case 'boolean':
      w.tag(2, WIRE.varint);
      w.varint(value ? 1 : 0);
      return;
    case 'number':
      if (Number.isInteger(value) && value >= MIN_INT64 && value < MAX_INT64) {
        w.tag(3, WIRE.varint);
        w.varint(value);
      } else {
        w.tag(4, WIRE.fixed64);
        w.double(value);
      }
      return;
    case 'object':
      writeObjectValue(w, value);
      return;
    default:
  }
}

function writeObjectValue(w: ProtobufWriter, value: object | null): void {
  if (value === null) return;
  if (value instanceof Uint8Array) {
    w.tag(7, WIRE.lengthDelimited);
    w.bytes(value);
    return;
  }
  if (Array.isArray(value)) {
    w.tag(5, WIRE.lengthDelimited);
    const array = w.start();
    for (const item of value as readonly unknown[]) {
      w.tag(1, WIRE.lengthDelimited);
      const member = w.start();
      writeAnyValue(w, item);
      w.finish(member);
    }
    w.finish(array);
    return;
  }
  w.tag(6, WIRE.lengthDelimited);
  const list = w.start();
  for (const [key, member] of Object.entries(value)) writeKeyValue(w, 1, key, member);
  w.finish(list);
}

function writeKeyValue(w: ProtobufWriter, field: number, key: string, value: unknown): void {
  if (typeof value === 'string' && w.shortStringKeyValue(field, key, value)) return;
  w.tag(field, WIRE.lengthDelimited);
  const pair = w.start();
  w.tag(1, WIRE.lengthDelimited);
  w.string(key);
  w.tag(2, WIRE.lengthDelimited);
  const any = w.start();
  writeAnyValue(w, value);
  w.finish(any);
  w.finish(pair);
}

/** Attributes as repeated `KeyValue` in field `field`. */
function writeAttributes(w: ProtobufWriter, field: number, attributes: Attributes): void {
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    writeKeyValue(w, field, key, attributes[key]);
  }
}

function writeEvent(w: ProtobufWriter, event: TimedEvent): void {
  w.tag(11, WIRE.lengthDelimited);
  const at = w.start();
  w.tag(1, WIRE.fixed64);
  w.hrTime(event.time);
  w.tag(2, WIRE.lengthDelimited);
  w.string(event.name);
  if (event.attributes) writeAttributes(w, 3, event.attributes);
  w.tag(4, WIRE.varint);
  w.varint(event.droppedAttributesCount ?? 0);
  w.finish(at);
}

/** A span id, from its bytes when this server recorded the span (no hex to read). */
function writeSpanId(w: ProtobufWriter, context: SpanContext): void {
  if (context instanceof RecordedSpanContext) w.idBytes(context.spanIdHigh, context.spanIdLow);
  else w.hexBytes(context.spanId);
}

/** Trace id, span id and trace state: fields 1, 2 and 3 of both `Span` and `Span.Link`. */
function writeIdentity(w: ProtobufWriter, context: SpanContext): void {
  w.tag(1, WIRE.lengthDelimited);
  if (context instanceof RecordedSpanContext) {
    const id = context.trace;
    w.traceIdBytes(id.word0, id.word1, id.word2, id.word3);
  } else {
    w.hexBytes(context.traceId);
  }
  w.tag(2, WIRE.lengthDelimited);
  writeSpanId(w, context);
  const traceState = context.traceState?.serialize();
  if (traceState) {
    w.tag(3, WIRE.lengthDelimited);
    w.string(traceState);
  }
}

function writeLink(w: ProtobufWriter, link: Link): void {
  if (writeRecordedLink(w, link)) return;
  w.tag(13, WIRE.lengthDelimited);
  const at = w.start();
  const context = link.context;
  writeIdentity(w, context);
  if (link.attributes) writeAttributes(w, 4, link.attributes);
  w.tag(5, WIRE.varint);
  w.varint(link.droppedAttributesCount ?? 0);
  w.tag(6, WIRE.fixed32);
  w.fixed32(spanFlags(context.traceFlags, context.isRemote));
  w.finish(at);
}

function writeStatus(w: ProtobufWriter, status: SpanStatus): void {
  w.tag(15, WIRE.lengthDelimited);
  const at = w.start();
  if (status.message) {
    w.tag(2, WIRE.lengthDelimited);
    w.string(status.message);
  }
  w.tag(3, WIRE.varint);
  w.varint(status.code);
  w.finish(at);
}

/** A span's start and end; a span this server recorded keeps them as epoch milliseconds, read without making `[s, ns]` pairs. */
function writeTimes(w: ProtobufWriter, span: ReadableSpan): void {
  const recorded = span instanceof RecordedSpan;
  w.tag(7, WIRE.fixed64);
  if (recorded) w.epochMillis(span.startMillis);
  else w.hrTime(span.startTime);
  w.tag(8, WIRE.fixed64);
  if (recorded) w.epochMillis(span.endMillis);
  else w.hrTime(span.endTime);
}

/** One finished span as a `Span` message in field 2 of `ScopeSpans`. */
export function writeSpan(w: ProtobufWriter, span: ReadableSpan): void {
  const plain = isPlainSpan(span);
  if (plain && span instanceof RecordedSpan) {
    const at = writeRecordedSpanHead(w, span);
    if (at >= 0) {
      writeAttributes(w, 9, span.attributes);
      // Its parent, if any, was recorded here: not remote.
      writePlainSpanTail(w, spanFlags(span.spanContext().traceFlags, undefined));
      w.finish(at);
      return;
    }
  }
  w.tag(2, WIRE.lengthDelimited);
  const at = w.start();
  const context = span.spanContext();
  writeIdentity(w, context);
  const parent = span.parentSpanContext;
  if (parent !== undefined && (parent instanceof RecordedSpanContext || parent.spanId)) {
    w.tag(4, WIRE.lengthDelimited);
    writeSpanId(w, parent);
  }
  w.tag(5, WIRE.lengthDelimited);
  w.string(span.name);
  // The API's kinds start at INTERNAL = 0; OTLP keeps 0 for "unspecified".
  w.tag(6, WIRE.varint);
  w.varint(span.kind + 1);
  writeTimes(w, span);
  writeAttributes(w, 9, span.attributes);
  const flags = spanFlags(context.traceFlags, parent?.isRemote);
  if (plain) {
    writePlainSpanTail(w, flags);
  } else {
    const events = span.events;
    const links = span.links;
    w.tag(10, WIRE.varint);
    w.varint(span.droppedAttributesCount);
    // Indexed loops: iterating the (usually empty) event and link lists allocates nothing.
    for (let i = 0; i < events.length; i++) writeEvent(w, events[i] as TimedEvent);
    w.tag(12, WIRE.varint);
    w.varint(span.droppedEventsCount);
    for (let i = 0; i < links.length; i++) writeLink(w, links[i] as Link);
    w.tag(14, WIRE.varint);
    w.varint(span.droppedLinksCount);
    writeStatus(w, span.status);
    w.tag(16, WIRE.fixed32);
    w.fixed32(flags);
  }
  w.finish(at);
}

/** The `Resource` message in field 1 of `ResourceSpans`. */
export function writeResource(w: ProtobufWriter, resource: Resource): void {
  w.tag(1, WIRE.lengthDelimited);
  const at = w.start();
  writeAttributes(w, 1, resource.attributes);
  w.tag(2, WIRE.varint);
  w.varint(0);
  w.finish(at);
}

/** The `InstrumentationScope` message in field 1 of `ScopeSpans`. */
export function writeScope(w: ProtobufWriter, scope: InstrumentationScope): void {
  w.tag(1, WIRE.lengthDelimited);
  const at = w.start();
  w.tag(1, WIRE.lengthDelimited);
  w.string(scope.name);
  if (scope.version) {
    w.tag(2, WIRE.lengthDelimited);
    w.string(scope.version);
  }
  w.finish(at);
}

/** Spans of one resource and scope, already written with {@link writeSpan}. */
export interface EncodedScopeSpans {
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
  readonly spans: Uint8Array;
}

/**
 * An `ExportTraceServiceRequest` from groups of encoded spans: one `ResourceSpans` per resource (in the
 * order of first appearance), one `ScopeSpans` per scope within it.
 */
export function writeExportRequest(w: ProtobufWriter, groups: readonly EncodedScopeSpans[]): void {
  const resources = [...new Set(groups.map((g) => g.resource))];
  for (const resource of resources) {
    w.tag(1, WIRE.lengthDelimited);
    const resourceSpans = w.start();
    writeResource(w, resource);
    for (const group of groups) {
      if (group.resource !== resource) continue;
      w.tag(2, WIRE.lengthDelimited);
      const scopeSpans = w.start();
      writeScope(w, group.scope);
      w.raw(group.spans);
      if (group.scope.schemaUrl) {
        w.tag(3, WIRE.lengthDelimited);
        w.string(group.scope.schemaUrl);
      }
      w.finish(scopeSpans);
    }
    if (resource.schemaUrl) {
      w.tag(3, WIRE.lengthDelimited);
      w.string(resource.schemaUrl);
    }
    w.finish(resourceSpans);
  }
}
