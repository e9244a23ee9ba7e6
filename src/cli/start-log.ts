import { open } from 'node:fs/promises';

/** The longest stretch of a log read back for a start that failed; its last error is near the end. */
const TAIL_BYTES = 64 * 1024;

function errorText(line: Record<string, unknown>): string | undefined {
  if (line['level'] !== 'error' && line['level'] !== 'fatal') return undefined;
  const msg = typeof line['msg'] === 'string' ? line['msg'] : '';
  const error = line['error'];
  const cause = typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string' ? (error as { message: string }).message : '';
  if (cause === '' || msg.includes(cause)) return msg === '' ? undefined : msg;
  return msg === '' ? cause : `${msg}: ${cause}`;
}

/**
 * The last error a server logged to `logFile` after byte `from` (where its start began), as
 * `<message>: <error message>`; undefined when there is none or the log cannot be read. Lines that are
 * not JSON log lines are skipped.
 */
export async function lastLoggedError(logFile: string, from: number): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(logFile, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = (await handle.stat()).size;
    const start = Math.max(from, size - TAIL_BYTES);
    const buffer = Buffer.alloc(Math.max(0, size - start));
    await handle.read(buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n').reverse();
    for (const text of lines) {
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        continue;
      }
      if (typeof line !== 'object' || line === null) continue;
      const found = errorText(line as Record<string, unknown>);
      if (found !== undefined) return found;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}
