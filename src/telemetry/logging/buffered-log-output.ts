import { writeSync } from 'node:fs';

/** Past this many characters waiting, lines are written at once. */
const MAX_PENDING_CHARS = 16_384;
/** How long a write that found the pipe full waits before it tries again, in milliseconds. */
const FULL_PIPE_WAIT_MS = 1;

const STDOUT = 1;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function isFullPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EAGAIN' || code === 'EBUSY';
}

/**
 * Log output to a file descriptor that gathers the lines of one event-loop turn and writes them with one
 * system call when the turn ends (or at once, when {@link MAX_PENDING_CHARS} are waiting). A server
 * under load answers many requests per turn, and a write per access-log line cost the event loop several
 * microseconds, most of it in the kernel waking whoever reads the pipe. Lines keep their order, and what
 * is waiting is written when the process exits, whatever the reason: lines are lost only when the
 * process is killed outright within the turn that logged them. Writes are synchronous, as single lines
 * were: a reader that stops reading holds the server up rather than its memory growing.
 */
export class BufferedLogOutput {
  private pending = '';
  private scheduled = false;
  private readonly flushAtTurnEnd = (): void => {
    this.scheduled = false;
    this.flush();
  };

  constructor(
    private readonly fd: number,
    /** Registers what to do when the process exits; `process.on('exit')` unless given. */
    atExit: (flush: () => void) => void = (flush) => process.on('exit', flush),
  ) {
    atExit(() => {
      this.flush();
    });
  }

  /** Queues `text` (whole lines, each with its line end). */
  write(text: string): void {
    this.pending += text;
    if (this.pending.length >= MAX_PENDING_CHARS) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushAtTurnEnd);
    }
  }

  /**
   * Writes everything waiting now. A full pipe is waited out; any other failure (the reader has gone)
   * drops these lines rather than the server: the next lines try again.
   */
  flush(): void {
    if (this.pending.length === 0) return;
    const bytes = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    let written = 0;
    while (written < bytes.length) {
      try {
        written += writeSync(this.fd, bytes, written);
      } catch (error) {
        if (!isFullPipe(error)) return;
        Atomics.wait(sleeper, 0, 0, FULL_PIPE_WAIT_MS);
      }
    }
  }
}

let shared: BufferedLogOutput | undefined;

/**
 * The process's one {@link BufferedLogOutput} to standard output: every logger writing there shares it,
 * so that their lines keep one order and the process has one exit hook however many loggers it makes.
 */
export function standardOutput(): BufferedLogOutput {
  return (shared ??= new BufferedLogOutput(STDOUT));
}
