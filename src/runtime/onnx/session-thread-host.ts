import { Worker } from 'node:worker_threads';
import { compiledWorkerFile } from '../../package-files/compiled-worker-file.js';
import { SluiceError } from '../../sdk/errors/index.js';
import { SlotTable } from '../../sdk/collections/slot-table.js';
import type { SessionThreadReply, SessionThreadRequest } from './session-thread-messages.js';

/** The compiled session thread module, or undefined when there is none (see {@link compiledWorkerFile}). */
export function sessionThreadFile(): string | undefined {
  return compiledWorkerFile(new URL('./session-thread.js', import.meta.url));
}

interface Pending {
  resolve(reply: SessionThreadReply): void;
  reject(error: Error): void;
}

/** A request without its `id`, which the host assigns. */
type Unnumbered<T> = T extends { readonly id: number } ? Omit<T, 'id'> : never;

/**
 * One device's session thread, seen from the owning thread: started by the device's first threaded
 * session, ended with its last one. Each device id has a thread of its own, so runs on different GPUs
 * overlap. It numbers requests and resolves each with its reply, a failure too. While no request is under
 * way it does not keep the process alive. If the thread dies, every request under way fails with
 * `SLUICE_INSTANCE_FAILED`, and the device's next session starts a new thread.
 */
export class SessionThreadHost {
  private static readonly running = new Map<number, SessionThreadHost>();
  private readonly worker: Worker;
  /** The requests awaiting their reply, under the ids they were sent with. */
  private readonly pending = new SlotTable<Pending>();
  private sessions = 0;
  /** Why the thread is gone, once it is. */
  private gone: SluiceError | undefined;

  private constructor(
    file: string,
    /** The device id whose sessions live here. */
    readonly device: number,
  ) {
    // The thread runs compiled JavaScript of Sluice's own and needs none of the process's flags.
    this.worker = new Worker(file, { execArgv: [] });
    this.worker.on('message', (reply: SessionThreadReply) => {
      this.settle(reply);
    });
    this.worker.on('error', (error: Error) => {
      this.lost(`the session thread of device ${device} failed: ${error.message}`);
    });
    this.worker.on('exit', (code) => {
      this.lost(`the session thread of device ${device} stopped (exit code ${code})`);
    });
    this.worker.unref();
  }

  /** The running host of `device`, started from `file` when there is none (or the last one died). */
  static acquire(file: string, device: number): SessionThreadHost {
    const host = SessionThreadHost.running.get(device);
    if (host !== undefined && host.gone === undefined) return host;
    const started = new SessionThreadHost(file, device);
    SessionThreadHost.running.set(device, started);
    return started;
  }

  /**
   * Sends `request`, moving `transfer` to the thread, and resolves with its reply (`failed` included);
   * rejects only when the thread is lost.
   */
  request(request: Unnumbered<SessionThreadRequest>, transfer: readonly ArrayBuffer[] = []): Promise<SessionThreadReply> {
    if (this.gone !== undefined) return Promise.reject(this.gone);
    return new Promise<SessionThreadReply>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      const id = this.pending.add({ resolve, reject });
      this.worker.postMessage({ ...request, id }, [...transfer]);
    });
  }

  /** Counts a session living on the thread. */
  opened(): void {
    this.sessions += 1;
  }

  /** A session on the thread was released; the last one ends the thread. */
  closed(): void {
    this.sessions -= 1;
    if (this.sessions > 0 || this.pending.size > 0) return;
    this.leave();
    void this.worker.terminate();
  }

  private settle(reply: SessionThreadReply): void {
    const pending = this.pending.take(reply.id);
    if (pending === undefined) return;
    if (this.pending.size === 0) this.worker.unref();
    pending.resolve(reply);
  }

  private lost(reason: string): void {
    if (this.gone !== undefined) return;
    this.gone = new SluiceError('SLUICE_INSTANCE_FAILED', `ONNX Runtime sessions on the session thread are lost: ${reason}`, {
      reason,
      device: this.device,
    });
    this.leave();
    for (const pending of this.pending.takeAll()) pending.reject(this.gone);
  }

  /** Stops handing this host out; the device's next session starts a new thread. */
  private leave(): void {
    if (SessionThreadHost.running.get(this.device) === this) SessionThreadHost.running.delete(this.device);
  }
}
