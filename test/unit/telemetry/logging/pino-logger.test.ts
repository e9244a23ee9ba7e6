import { describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, TraceFlags, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import type { Logger, LogLevel } from '../../../../src/sdk/logging/logger.js';
import { createLogger, lineSink } from '../../../../src/telemetry/logging/pino-logger.js';
import { loggerWithTrace, traceLogFields } from '../../../../src/telemetry/logging/trace-log-fields.js';

function capture(level: LogLevel): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(
    level,
    lineSink((line) => lines.push(JSON.parse(line) as Record<string, unknown>)),
  );
  return { logger, lines };
}

/** A logger at `level` and the raw lines it writes. */
function captureRaw(level: LogLevel): { logger: Logger; raw: string[] } {
  const raw: string[] = [];
  return { logger: createLogger(level, lineSink((line) => raw.push(line))), raw };
}

function logAll(logger: Logger): void {
  logger.debug('d');
  logger.info('i');
  logger.warn('w');
  logger.error('e');
}

// Sluice installs no context manager; an embedder may, and then lines logged inside `context.with` carry its span.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

describe('the pino logger', () => {
  it('writes one JSON object per line: level and time first, message last', () => {
    const { logger, raw } = captureRaw('info');
    logger.info('model loaded', { model: 'iris' });
    expect(raw).toHaveLength(1);
    const line = JSON.parse(raw[0]!) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(['level', 'time', 'model', 'msg']);
    expect(line).toMatchObject({ level: 'info', msg: 'model loaded', model: 'iris' });
    expect(new Date(line['time'] as string).toISOString()).toBe(line['time']);
  });

  const levels: ReadonlyArray<readonly [LogLevel, string[]]> = [
    ['debug', ['d', 'i', 'w', 'e']],
    ['info', ['i', 'w', 'e']],
    ['warn', ['w', 'e']],
    ['error', ['e']],
    ['silent', []],
  ];
  it.each(levels)('at level %s writes only lines at or above it', (level, expected) => {
    const { logger, lines } = capture(level);
    logAll(logger);
    expect(lines.map((l) => l['msg'])).toEqual(expected);
  });

  it('writes the level of each line', () => {
    const { logger, lines } = capture('debug');
    logAll(logger);
    expect(lines.map((l) => l['level'])).toEqual(['debug', 'info', 'warn', 'error']);
  });

  it('adds a child’s fields to every line', () => {
    const { logger, lines } = capture('info');
    logger.child({ model: 'iris' }).child({ version: '2' }).info('ready', { workers: 1 });
    expect(lines[0]).toMatchObject({ msg: 'ready', model: 'iris', version: '2', workers: 1 });
  });

  it('lets a line’s fields win over the child’s', () => {
    const { logger, lines } = capture('info');
    logger.child({ model: 'iris' }).info('x', { model: 'mnist' });
    expect(lines[0]!['model']).toBe('mnist');
  });

  it('keeps the level of its parent', () => {
    const { logger, lines } = capture('warn');
    const child = logger.child({ model: 'iris' });
    child.info('dropped');
    child.warn('kept');
    expect(lines.map((l) => l['msg'])).toEqual(['kept']);
  });

  it('does not change the parent when a child is made', () => {
    const { logger, lines } = capture('info');
    logger.child({ model: 'iris' });
    logger.info('plain');
    expect(lines[0]).not.toHaveProperty('model');
  });

  it('reduces an error to its name and message', () => {
    const { logger, lines } = capture('info');
    logger.error('failed', { error: new TypeError('bad thing') });
    expect(lines[0]!['error']).toEqual({ name: 'TypeError', message: 'bad thing' });
  });

  it('keeps the code of an error that has one', () => {
    const { logger, lines } = capture('info');
    logger.error('failed', { error: new SluiceError('SLUICE_MODEL_NOT_FOUND', 'no model', { model: 'x' }) });
    expect(lines[0]!['error']).toEqual({ name: 'SluiceError', message: 'no model', code: 'SLUICE_MODEL_NOT_FOUND' });
  });

  it('reduces an error in a child’s fields like one in a line’s fields', () => {
    const { logger, lines } = capture('info');
    logger.child({ error: new SluiceError('SLUICE_MODEL_NOT_FOUND', 'no model', { model: 'x' }) }).error('failed');
    expect(lines[0]!['error']).toEqual({ name: 'SluiceError', message: 'no model', code: 'SLUICE_MODEL_NOT_FOUND' });
  });

  it('writes line fields named time, level or msg as field.time, field.level and field.msg', () => {
    const { logger, lines } = capture('info');
    logger.info('ready', { time: 'yesterday', level: 'debug', msg: 'other' });
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'ready', 'field.time': 'yesterday', 'field.level': 'debug', 'field.msg': 'other' });
    expect(lines[0]!['time']).not.toBe('yesterday');
  });

  it('writes child fields named time, level or msg as field.time, field.level and field.msg', () => {
    const { logger, lines } = capture('info');
    logger.child({ time: 'yesterday', level: 'debug', msg: 'other' }).info('ready');
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'ready', 'field.time': 'yesterday', 'field.level': 'debug', 'field.msg': 'other' });
    expect(lines[0]!['time']).not.toBe('yesterday');
  });

  it('adds the trace and span ids of the active span', () => {
    const { logger, lines } = capture('info');
    const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };
    context.with(trace.setSpanContext(ROOT_CONTEXT, spanContext), () => {
      logger.child({ model: 'iris' }).info('inside');
    });
    logger.info('outside');
    expect(lines[0]).toMatchObject({ trace_id: spanContext.traceId, span_id: spanContext.spanId, trace_flags: '01' });
    expect(lines[1]).not.toHaveProperty('trace_id');
  });

  it('writes the trace fields a request line passes explicitly, with no active span', () => {
    const { logger, lines } = capture('info');
    const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.NONE };
    logger.info('request', { ...traceLogFields(trace.setSpanContext(ROOT_CONTEXT, spanContext)), status: 200 });
    expect(lines[0]).toMatchObject({ trace_id: spanContext.traceId, span_id: spanContext.spanId, trace_flags: '00', status: 200 });
  });

  it('gives every line of a logger bound to a trace context its trace fields, children included', () => {
    const { logger, lines } = capture('info');
    const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };
    const traced = loggerWithTrace(logger, trace.setSpanContext(ROOT_CONTEXT, spanContext));
    traced.warn('slow input');
    traced.child({ node: 'crop' }).info('cropped');
    for (const line of lines) expect(line).toMatchObject({ trace_id: spanContext.traceId, span_id: spanContext.spanId });
    expect(lines).toHaveLength(2);
  });

  it('leaves the fields it is given as they were, inside and outside an active span', () => {
    const { logger } = capture('info');
    const fields = { model: 'iris', status: 200 };
    logger.info('outside', fields);
    const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };
    context.with(trace.setSpanContext(ROOT_CONTEXT, spanContext), () => {
      logger.info('inside', fields);
    });
    expect(fields).toEqual({ model: 'iris', status: 200 });
  });

  it('lets a line’s own trace fields win over the active span’s', () => {
    const { logger, lines } = capture('info');
    const active = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };
    const own = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };
    context.with(trace.setSpanContext(ROOT_CONTEXT, active), () => {
      logger.info('request', traceLogFields(trace.setSpanContext(ROOT_CONTEXT, own)));
    });
    expect(lines[0]).toMatchObject({ trace_id: own.traceId, span_id: own.spanId });
  });

  it('writes flat lines and lines with nested fields alike: level, time, the bound fields, the line’s, message', () => {
    const { logger: parent, raw } = captureRaw('info');
    const logger = parent.child({ model: 'mlp' });
    logger.info('flat "line"\n', { status: 200, ok: true, note: null, skipped: undefined });
    logger.info('nested', { shape: [1, 64], status: 200 });
    const lines = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => Object.keys(line))).toEqual([
      ['level', 'time', 'model', 'status', 'ok', 'note', 'msg'],
      ['level', 'time', 'model', 'shape', 'status', 'msg'],
    ]);
    expect(lines[0]).toMatchObject({ level: 'info', model: 'mlp', status: 200, ok: true, note: null, msg: 'flat "line"\n' });
    expect(lines[1]).toMatchObject({ shape: [1, 64], msg: 'nested' });
    expect(new Date(lines[0]!['time'] as string).toISOString()).toBe(lines[0]!['time']);
  });

  it('keeps a child’s nested bound fields on its flat lines', () => {
    const { logger, lines } = capture('info');
    logger.child({ instance: { id: 'mlp-1.0-0', device: 'cpu' } }).warn('slow', { ms: 12 });
    expect(lines[0]).toEqual({ level: 'warn', time: expect.any(String), instance: { id: 'mlp-1.0-0', device: 'cpu' }, ms: 12, msg: 'slow' });
  });

  it('drops flat lines below its level', () => {
    const { logger, lines } = capture('warn');
    logger.child({ model: 'mlp' }).info('request', { status: 200 });
    expect(lines).toEqual([]);
  });

  it('writes bigints as strings', () => {
    const { logger, lines } = capture('info');
    logger.info('big', { n: 2n ** 70n });
    expect(lines[0]!['n']).toBe('1180591620717411303424');
  });

  it('leaves undefined fields out', () => {
    const { logger, raw } = captureRaw('info');
    logger.info('request', { model: 'mlp', workflow: undefined, errorCode: undefined });
    expect(Object.keys(JSON.parse(raw[0]!) as object)).toEqual(['level', 'time', 'model', 'msg']);
  });

  it('writes non-finite numbers as null', () => {
    const { logger, lines } = capture('info');
    logger.info('odd', { a: Number.NaN, b: Infinity, c: -Infinity });
    expect(lines[0]).toMatchObject({ a: null, b: null, c: null });
  });

  it('escapes quotes, backslashes, line ends, control characters and keys, in a line’s fields and a child’s', () => {
    const value = 'say "hi"\\\n\t\u0001 – 推論 🚀';
    const { logger, raw } = captureRaw('info');
    logger.child({ [`bound "key"`]: value }).info(value, { [`odd "key"\n`]: value });
    expect(raw).toHaveLength(1);
    expect(raw[0]).not.toContain('\n');
    expect(JSON.parse(raw[0]!)).toMatchObject({ 'bound "key"': value, 'odd "key"\n': value, msg: value });
  });

  it('writes every field of a line with many distinct names', () => {
    const { logger, lines } = capture('info');
    const fields = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k"${i}`, i]));
    logger.info('wide', fields);
    expect(lines[0]).toMatchObject(fields);
  });

  it('reduces an error under err like any other error field, not to pino’s type and stack', () => {
    const { logger, lines } = capture('info');
    logger.error('failed', { err: new RangeError('too far') });
    expect(lines[0]!['err']).toEqual({ name: 'RangeError', message: 'too far' });
  });

  it('writes the bigints and errors of a child’s fields like a line’s', () => {
    const { logger, lines } = capture('info');
    logger.child({ n: 2n ** 70n, cause: new TypeError('bad') }).info('x');
    expect(lines[0]).toMatchObject({ n: '1180591620717411303424', cause: { name: 'TypeError', message: 'bad' } });
  });
});
