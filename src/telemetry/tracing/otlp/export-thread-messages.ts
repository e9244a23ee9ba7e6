/**
 * What the request thread tells the export thread. Encoded requests travel in shared buffers ("slots")
 * that the export thread is handed once: a send names its slot and length, so no buffer is transferred
 * or copied per batch (handing a buffer over with each message cost the request thread far more).
 */
export type ExportThreadRequest =
  | { readonly type: 'slot'; readonly slot: number; readonly buffer: SharedArrayBuffer }
  | { readonly type: 'send'; readonly id: number; readonly slot: number; readonly length: number; readonly spanCount: number }
  | { readonly type: 'flush'; readonly id: number }
  | { readonly type: 'shutdown'; readonly id: number };

/**
 * What the export thread answers, by the request's id: whether it went well, and if not, why; for an
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
}
