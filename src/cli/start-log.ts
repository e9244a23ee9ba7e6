import { open } from 'node:fs/promises';

/** The longest stretch of a log read back for a start that failed; its errors are near the end. */
const TAIL_BYTES = 64 * 1024;
/** The most lines of a report quoted, counted from its end (where the cause of the failure is). */
const MAX_REPORT_LINES = 40;
/** The longest line quoted: a longer one is cut, saying so. */
const MAX_LINE_CHARS = 2000;

function errorText(line: Record<string, unknown>): string | undefined {
  if (line['level'] !== 'error' && line['level'] !== 'fatal') return undefined;
  const msg = typeof line['msg'] === 'string' ? line['msg'] : '';
  const error = line['error'];
  const cause = typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string' ? (error as { message: string }).message : '';
  if (cause === '' || msg.includes(cause)) return msg === '' ? undefined : msg;
  return msg === '' ? cause : `${msg}: ${cause}`;
}

/** What one line of the log adds to the report: an error log line's text, or a line that is no log line at all. */
function reportedText(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    // Written to stderr: a `sluice:` problem report, an uncaught error's stack, a warning of Node's.
    return text;
  }
  if (typeof line !== 'object' || line === null || Array.isArray(line)) return text;
  return errorText(line as Record<string, unknown>);
}

function cut(line: string): string {
  return line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS)}… (${line.length - MAX_LINE_CHARS} more characters in the log)`;
}

/**
 * The errors a server reported in `logFile` after byte `from` (where its start began), oldest first: each
 * JSON log line at level error or fatal as `<message>: <error message>`, and every line that is not a JSON log
 * line (what the process wrote to stderr: a `sluice:` problem report, an uncaught error and its stack). A
 * message of several lines gives several lines. Bounded: at most the last 40 lines (a first line says how many
 * more the log holds) of 2000 characters each, from the last 64 KiB of the log. Empty when there are none or
 * the log cannot be read.
 */
export async function startErrorReport(logFile: string, from: number): Promise<string[]> {
  let handle;
  try {
    handle = await open(logFile, 'r');
  } catch {
    return [];
  }
  try {
    const size = (await handle.stat()).size;
    const start = Math.max(from, size - TAIL_BYTES);
    const buffer = Buffer.alloc(Math.max(0, size - start));
    await handle.read(buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n');
    // A read that starts inside the log may start inside a line.
    if (start > from) lines.shift();
    const report = lines.flatMap((text) => reportedText(text)?.split('\n') ?? []);
    if (report.length <= MAX_REPORT_LINES) return report.map(cut);
    const left = report.length - MAX_REPORT_LINES + 1;
    return [`… (${left} earlier lines in the log)`, ...report.slice(-(MAX_REPORT_LINES - 1)).map(cut)];
  } finally {
    await handle.close();
  }
}
