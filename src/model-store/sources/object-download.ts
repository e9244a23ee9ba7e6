import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SluiceError } from '../../sdk/errors/index.js';
import type { StoredObject } from './object-store.js';

/** Why a body was refused while it streamed; turned into a Sluice error naming the source. */
export class BodyRefused extends Error {}

/** How one object is written. */
export interface ObjectWrite {
  /** The object as listed: its size and, when known, its MD5 are checked once it is written. */
  readonly object: StoredObject;
  /** The file written (created, never replaced). */
  readonly file: string;
  /** Largest number of bytes this object may have (what is left of the source's limit). */
  readonly maxBytes: number;
  readonly signal: AbortSignal;
  /** Called with each chunk's length as it is written. */
  readonly onBytes: (count: number) => void;
}

/**
 * Streams `body` into `write.file` (never holding it in memory), stopping as soon as it exceeds
 * `maxBytes`, then checks that it has the listed size and, when the store gave one, the listed MD5. Throws
 * {@link BodyRefused} for a body that is too large, cut short or not what was listed; the caller removes
 * the file.
 */
export async function writeObject(body: Readable, write: ObjectWrite): Promise<void> {
  const md5 = createHash('md5');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      bytes += chunk.length;
      if (bytes > write.maxBytes) {
        callback(new BodyRefused(`it is larger than the limit of ${write.maxBytes} bytes`));
        return;
      }
      md5.update(chunk);
      write.onBytes(chunk.length);
      callback(null, chunk);
    },
  });
  await pipeline(body, counter, createWriteStream(write.file, { flags: 'wx', mode: 0o644 }), { signal: write.signal });
  if (bytes !== write.object.size) {
    throw new BodyRefused(`${bytes} bytes arrived where ${write.object.size} were listed: the transfer was cut short or the object changed`);
  }
  const digest = md5.digest('hex');
  if (write.object.md5 !== undefined && digest !== write.object.md5) {
    throw new BodyRefused(`its MD5 ${digest} does not match the checksum the store lists, ${write.object.md5}`);
  }
}

/** A download that failed for a reason in `refused`, naming the object and the source. */
export function downloadRefused(url: string, key: string, reason: string, cause?: unknown): SluiceError {
  return new SluiceError(
    'SLUICE_MANAGEMENT_DOWNLOAD_FAILED',
    `downloading ${JSON.stringify(key)} of ${url} failed: ${reason}; nothing was kept. Check the object in the store, then register it again`,
    { url, key, reason },
    { cause },
  );
}
