import type { Readable } from 'node:stream';

/** One object of a listing. */
export interface StoredObject {
  /** The full key in the bucket or container. */
  readonly key: string;
  readonly size: number;
  /** The entity tag, without quotes: which version of the object this is. */
  readonly etag: string;
  /** The MD5 of the content in hex, when the store vouches for one (an S3 single-part ETag, an Azure Content-MD5). */
  readonly md5?: string;
}

/**
 * The few calls a model source needs from an object store. Implementations translate their SDK's errors
 * into `SLUICE_SOURCE_*` errors that name the bucket or container and never a credential.
 */
export interface ObjectStore {
  /** How messages name the bucket or container, e.g. `s3 bucket "models"`. */
  readonly label: string;
  /** Every object whose key starts with `prefix`, at most `limit` + 1 of them (so that going over shows). */
  list(prefix: string, limit: number, signal: AbortSignal): Promise<StoredObject[]>;
  /** The object with exactly this key, or undefined when there is none. */
  head(key: string, signal: AbortSignal): Promise<StoredObject | undefined>;
  /** The content of `object`, only if it still has its entity tag (a changed object fails, not mixes). */
  read(object: StoredObject, signal: AbortSignal): Promise<Readable>;
}
