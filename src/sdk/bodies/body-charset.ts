import { SluiceError } from '../errors/index.js';
import { shortenedText } from '../text/shortened-text.js';

/** The charsets a body read as text may name: UTF-8 (also spelled `utf8`), and US-ASCII, which is a subset of it. */
const UTF8_CHARSETS: ReadonlySet<string> = new Set(['utf-8', 'utf8', 'us-ascii']);

const CHARSET = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/** The `charset` parameter of a `Content-Type` value, lower-cased; undefined when it names none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  // Most requests name no parameter at all: no pattern to run for them.
  if (contentType === undefined || !contentType.includes(';')) return undefined;
  const match = CHARSET.exec(contentType);
  const charset = (match?.[1] ?? match?.[2] ?? '').trim().toLowerCase();
  return charset === '' ? undefined : charset;
}

/**
 * Refuses a body about to be read as text (JSON) whose `Content-Type` names a charset other than UTF-8:
 * Sluice decodes text as UTF-8 only (JSON is UTF-8 by RFC 8259), so a Latin-1 or UTF-16 body would
 * otherwise be read wrong without a word. `charset` is {@link charsetOf}'s; none, `utf-8` and `us-ascii`
 * (any case) pass. Throws `SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE` naming the charset.
 */
export function refuseNonUtf8Charset(charset: string | undefined): void {
  if (charset === undefined || UTF8_CHARSETS.has(charset)) return;
  throw new SluiceError(
    'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
    `the body is declared as charset=${shortenedText(charset)}, but Sluice reads JSON and text bodies as UTF-8 only; send the body UTF-8 encoded, with charset=utf-8 or no charset`,
    { charset },
  );
}
