/** What the request thread tells the export thread. */
export type ExportThreadRequest =
  | { readonly type: 'send'; readonly id: number; readonly bytes: ArrayBuffer; readonly spanCount: number }
  | { readonly type: 'flush'; readonly id: number }
  | { readonly type: 'shutdown'; readonly id: number };

/** What the export thread answers, by the request's id: whether it went well, and if not, why. */
export interface ExportThreadReply {
  readonly id: number;
  readonly ok: boolean;
  readonly error?: string;
}

/** What the export thread is started with. */
export interface ExportThreadData {
  /** Full URL spans are posted to (`…/v1/traces`). */
  readonly url: string;
}
