import { SpanStatusCode, type Link } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { RecordedSpan } from '../recording/recorded-span.js';
import { RecordedSpanContext } from '../recording/recorded-span-context.js';
import { setEpochNanos, type ProtobufWriter } from './protobuf-writer.js';

/*
 * The parts of the OTLP `Span` and `Span.Link` messages that every span this server records has, written
 * in one pass with the lengths and keys known in advance: a traced request ends several such spans, and
 * writing them field by field (a bounds check, a key and a call per field) took most of their encoding
 * time. The bytes are those of the field-by-field writer in `otlp-span-encoding.ts`, which handles every
 * other span and link, and shares the plain tail and the flags written here.
 */

/** Keys (field number and wire type) of the fields written here. */
const SCOPE_SPANS_SPAN = 0x12; // ScopeSpans.spans = 2, length-delimited
const TRACE_ID = 0x0a; // Span.trace_id = 1, Span.Link.trace_id = 1
const SPAN_ID = 0x12; // Span.span_id = 2, Span.Link.span_id = 2
const PARENT_SPAN_ID = 0x22; // Span.parent_span_id = 4
const NAME = 0x2a; // Span.name = 5
const KIND = 0x30; // Span.kind = 6, varint
const START = 0x39; // Span.start_time_unix_nano = 7, fixed64
const END = 0x41; // Span.end_time_unix_nano = 8, fixed64
const SPAN_LINK = 0x6a; // Span.links = 13
const LINK_DROPPED_ATTRIBUTES = 0x28; // Span.Link.dropped_attributes_count = 5, varint
const LINK_FLAGS = 0x35; // Span.Link.flags = 6, fixed32
/** `Span.flags` = 16, fixed32: a two-byte key. */
const SPAN_FLAGS_KEY_0 = 0x85;
const SPAN_FLAGS_KEY_1 = 0x01;
/** `Span.flags` and `Span.Link.flags`: the W3C trace flags, and whether the parent's (or linked) context is known to be remote. */
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;
/** A span name that fits a one-byte length. */
const MAX_NAME = 0x7f;
/** Bytes of the head before the name: the span's key and length byte, trace id, span id and parent id with their keys. */
const HEAD_BEFORE_NAME = 2 + 18 + 10 + 10 + 2;
/** Bytes of the head after the name: kind, start and end. */
const HEAD_AFTER_NAME = 2 + 9 + 9;
/** Bytes of the plain tail: fields 10 to 16. */
const PLAIN_TAIL = 10 + 6;
/** Bytes of a link to a recorded span without attributes, its key and length included. */
const RECORDED_LINK = 2 + 18 + 10 + 2 + 5;

/** `Span.flags` or `Span.Link.flags` for a context with `traceFlags` whose remoteness is `isRemote`. */
export function spanFlags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | HAS_IS_REMOTE | (isRemote === true ? IS_REMOTE : 0);
}

/**
 * True when `span` has no events, links, drops or status, so that everything after its attributes is
 * {@link writePlainSpanTail}: most spans.
 */
export function isPlainSpan(span: ReadableSpan): boolean {
  const status = span.status;
  return (
    span.events.length === 0 &&
    span.links.length === 0 &&
    status.code === SpanStatusCode.UNSET &&
    !status.message &&
    span.droppedAttributesCount === 0 &&
    span.droppedEventsCount === 0 &&
    span.droppedLinksCount === 0
  );
}

/**
 * Starts `span` as field 2 of `ScopeSpans` and writes its fields 1 to 8 (ids, parent, name, kind,
 * times) when this server recorded both it and its parent, it has no trace state and its name is ASCII
 * and at most 127 characters long. Returns where its length goes (for `finish`, after its attributes
 * and tail), or -1, with nothing written, for the field-by-field writer.
 */
export function writeRecordedSpanHead(w: ProtobufWriter, span: RecordedSpan): number {
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  const name = span.name;
  const nameLength = name.length;
  if (!(context instanceof RecordedSpanContext) || context.traceState !== undefined || nameLength > MAX_NAME) return -1;
  if (parent !== undefined && !(parent instanceof RecordedSpanContext)) return -1;
  const buffer = w.reserve(HEAD_BEFORE_NAME + nameLength + HEAD_AFTER_NAME);
  const view = w.dataView;
  let pos = w.pos;
  buffer[pos++] = SCOPE_SPANS_SPAN;
  const at = pos++;
  pos = writeRecordedIds(buffer, view, pos, context);
  if (parent !== undefined) {
    buffer[pos++] = PARENT_SPAN_ID;
    buffer[pos++] = 8;
    view.setUint32(pos, parent.spanIdHigh >>> 0);
    view.setUint32(pos + 4, parent.spanIdLow >>> 0);
    pos += 8;
  }
  buffer[pos++] = NAME;
  buffer[pos++] = nameLength;
  pos = w.copyAscii(name, pos);
  if (pos < 0) return -1;
  // The API's kinds start at INTERNAL = 0; OTLP keeps 0 for "unspecified".
  buffer[pos++] = KIND;
  buffer[pos++] = span.kind + 1;
  buffer[pos++] = START;
  setEpochNanos(view, pos, span.startMillis);
  pos += 8;
  buffer[pos++] = END;
  setEpochNanos(view, pos, span.endMillis);
  w.pos = pos + 8;
  return at;
}

/**
 * Fields 10 to 16 of a plain span ({@link isPlainSpan}), as the SDK writes them: no drops, events or
 * links, a `status` holding code 0, and `flags` ({@link spanFlags}).
 */
export function writePlainSpanTail(w: ProtobufWriter, flags: number): void {
  const buffer = w.reserve(PLAIN_TAIL);
  let pos = w.pos;
  buffer[pos++] = 0x50; // dropped_attributes_count = 10: 0
  buffer[pos++] = 0;
  buffer[pos++] = 0x60; // dropped_events_count = 12: 0
  buffer[pos++] = 0;
  buffer[pos++] = 0x70; // dropped_links_count = 14: 0
  buffer[pos++] = 0;
  buffer[pos++] = 0x7a; // status = 15, two bytes: code = 3: 0
  buffer[pos++] = 2;
  buffer[pos++] = 0x18;
  buffer[pos++] = 0;
  buffer[pos++] = SPAN_FLAGS_KEY_0;
  buffer[pos++] = SPAN_FLAGS_KEY_1;
  w.dataView.setUint32(pos, flags, true);
  w.pos = pos + 4;
}

/**
 * `link` as field 13 of `Span` when it points at a span this server recorded, without trace state,
 * attributes or drops (a batch's links to the requests it served); false, with nothing written, otherwise.
 */
export function writeRecordedLink(w: ProtobufWriter, link: Link): boolean {
  const context = link.context;
  if (!(context instanceof RecordedSpanContext) || context.traceState !== undefined || link.attributes !== undefined || (link.droppedAttributesCount ?? 0) !== 0) return false;
  const buffer = w.reserve(RECORDED_LINK);
  const view = w.dataView;
  let pos = w.pos;
  buffer[pos++] = SPAN_LINK;
  buffer[pos++] = RECORDED_LINK - 2;
  pos = writeRecordedIds(buffer, view, pos, context);
  buffer[pos++] = LINK_DROPPED_ATTRIBUTES;
  buffer[pos++] = 0;
  buffer[pos++] = LINK_FLAGS;
  // A recorded context is never remote.
  view.setUint32(pos, spanFlags(context.traceFlags, undefined), true);
  w.pos = pos + 4;
  return true;
}

/** Trace id and span id (fields 1 and 2 of both `Span` and `Span.Link`) of a recorded span at `pos`, room made; returns where they end. */
function writeRecordedIds(buffer: Uint8Array, view: DataView, pos: number, context: RecordedSpanContext): number {
  const id = context.trace;
  buffer[pos] = TRACE_ID;
  buffer[pos + 1] = 16;
  view.setUint32(pos + 2, id.word0 >>> 0);
  view.setUint32(pos + 6, id.word1 >>> 0);
  view.setUint32(pos + 10, id.word2 >>> 0);
  view.setUint32(pos + 14, id.word3 >>> 0);
  buffer[pos + 18] = SPAN_ID;
  buffer[pos + 19] = 8;
  view.setUint32(pos + 20, context.spanIdHigh >>> 0);
  view.setUint32(pos + 24, context.spanIdLow >>> 0);
  return pos + 28;
}
