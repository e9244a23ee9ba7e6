import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** A span processor that remembers every call it gets, for assertions on what a tracer tells its processors. */
export class RecordingSpanProcessor implements SpanProcessor {
  readonly started: { span: Span; parentContext: Context }[] = [];
  readonly ended: ReadableSpan[] = [];
  flushes = 0;
  shutdowns = 0;

  onStart(span: Span, parentContext: Context): void {
    this.started.push({ span, parentContext });
  }

  onEnd(span: ReadableSpan): void {
    this.ended.push(span);
  }

  forceFlush(): Promise<void> {
    this.flushes++;
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    this.shutdowns++;
    return Promise.resolve();
  }
}
