/**
 * What the request thread tells the export thread by message: the rare things. Encoded batches travel
 * in shared buffers ("slots") the thread is handed once, and are announced through the shared ring
 * (`export-ring.ts`), not by message.
 */
export type ExportThreadRequest =
  | { readonly type: 'slot'; readonly slot: number; readonly buffer: SharedArrayBuffer }
  | { readonly type: 'flush'; readonly id: number }
  | { readonly type: 'shutdown'; readonly id: number };

/**
 * What the export thread answers by message, by the request's id: flushes, shutdowns and failed batches
 * (batches sent are reported through the ring). Whether it went well, and if not, why; for an
 * answer of the collector, its HTTP status and body too (the transport's error carries them as `code` and
 * `data`, and only plain data crosses threads).
 */
export interface ExportThreadReply {
  readonly id: number;
  readonly ok: boolean;
  readonly error?: string;
  readonly status?: number;
  readonly body?: string;
}

/** What the export thread is started with. */
export interface ExportThreadData {
  /** Full URL spans are posted to (`…/v1/traces`). */
  readonly url: string;
  /** The shared array of the batch ring. */
  readonly ring: SharedArrayBuffer;
}
