import { describe, expect, it } from '@jest/globals';
import { createLogger, lineSink } from '../../../../src/telemetry/logging/pino-logger.js';
import { prettyLogStream } from '../../../../src/telemetry/logging/pretty-log-stream.js';

/** The pretty lines a logger writes, without the colours a terminal would get. */
function prettyLines(): { lines: string[]; stream: ReturnType<typeof prettyLogStream> } {
  const lines: string[] = [];
  // eslint-disable-next-line no-control-regex -- the colours are control sequences
  const stream = prettyLogStream(lineSink((line) => lines.push(line.replace(/\u001b\[\d+m/g, ''))));
  return { lines, stream };
}

describe('prettyLogStream', () => {
  it('writes one line: local time of day, level in capitals, message, then the fields as JSON', () => {
    const { lines, stream } = prettyLines();
    createLogger('info', stream).child({ port: 'inference' }).info('request', { method: 'POST', status: 200 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: request \{"port":"inference","method":"POST","status":200\}$/);
  });

  it('gives the line’s time as the local time of day, to the millisecond', () => {
    const { lines, stream } = prettyLines();
    const time = new Date('2026-01-02T03:04:05.678Z');
    stream.write(`{"level":"warn","time":"${time.toISOString()}","msg":"slow"}\n`);
    const local = [time.getHours(), time.getMinutes()].map((n) => String(n).padStart(2, '0')).join(':');
    expect(lines).toEqual([`[${local}:05.678] WARN: slow`]);
  });

  it('keeps an error field on the same line, as its name, message and code', () => {
    const { lines, stream } = prettyLines();
    const error = Object.assign(new Error('no model'), { code: 'SLUICE_MODEL_NOT_FOUND' });
    createLogger('info', stream).error('request failed', { error });
    expect(lines).toEqual([expect.stringMatching(/ ERROR: request failed \{"error":\{"name":"Error","message":"no model","code":"SLUICE_MODEL_NOT_FOUND"\}\}$/)]);
  });

  it('writes a line with no fields as time, level and message alone', () => {
    const { lines, stream } = prettyLines();
    createLogger('debug', stream).debug('ready');
    expect(lines).toEqual([expect.stringMatching(/^\[[\d:.]+\] DEBUG: ready$/)]);
  });
});
