import busboy from 'busboy';
import { SluiceError } from '../../../sdk/errors/index.js';

/** One part of a `multipart/form-data` body. */
export interface FormPart {
  /** The part's field name (`data` in `-F data=@kitten.jpg`). */
  readonly name: string;
  /** The file name the client gave, for a file part. */
  readonly filename?: string;
  /** The part's media type without parameters (`text/plain` when it declares none). */
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** How much a form may hold. */
export interface FormLimits {
  /** Parts in one body, every kind counted. */
  readonly maxParts: number;
}

function malformed(reason: string): SluiceError {
  return new SluiceError(
    'SLUICE_MULTIPART_INVALID',
    `the multipart/form-data body cannot be read: ${reason}; send it as curl -F does (Content-Type: multipart/form-data; boundary=…, each part framed by the boundary)`,
  );
}

/** Busboy's own wording, lower-cased where it begins a sentence (`Multipart: Boundary not found` → `boundary not found`). */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^Multipart: /, '').replace(/^./, (first) => first.toLowerCase());
}

/**
 * The parts of a `multipart/form-data` body that has been read whole (bounded by the body limit), in
 * order, decoded by busboy. A header without a boundary, or a body that does not follow it, is refused
 * with `SLUICE_MULTIPART_INVALID`, and so is a part without a name; more parts than `limits.maxParts` with
 * `SLUICE_MULTIPART_TOO_MANY_PARTS`.
 */
export function readMultipartForm(body: Uint8Array, contentTypeHeader: string, limits: FormLimits): Promise<FormPart[]> {
  let parser: busboy.Busboy;
  try {
    // No part can be larger than the body, which is already bounded: busboy must not cut one short.
    const whole = body.byteLength + 1;
    parser = busboy({ headers: { 'content-type': contentTypeHeader }, limits: { parts: limits.maxParts, fieldSize: whole, fileSize: whole }, defParamCharset: 'utf8' });
  } catch (error) {
    return Promise.reject(malformed(reasonOf(error)));
  }
  return new Promise<FormPart[]>((resolve, reject) => {
    const parts: Promise<FormPart>[] = [];
    let tooMany = false;
    // Busboy hands a part without a name (`Content-Disposition: form-data` alone) on with none.
    let unnamed: number | undefined;
    const noteUnnamed = (name: string | undefined): void => {
      if ((name === undefined || name === '') && unnamed === undefined) unnamed = parts.length + 1;
    };
    parser.on('file', (name, stream, info) => {
      noteUnnamed(name);
      const filename = info.filename;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      parts.push(
        new Promise<FormPart>((done) => {
          const finish = (): void => {
            const bytes = Buffer.concat(chunks);
            done({ name, ...(filename !== undefined ? { filename } : {}), contentType: info.mimeType.toLowerCase(), bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
          };
          stream.on('end', finish);
          // A part cut short: the parser itself fails the form with the reason.
          stream.on('error', finish);
        }),
      );
    });
    parser.on('field', (name, value, info) => {
      noteUnnamed(name);
      const bytes = Buffer.from(value, 'utf8');
      parts.push(Promise.resolve({ name, contentType: info.mimeType.toLowerCase(), bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) }));
    });
    parser.on('partsLimit', () => {
      tooMany = true;
    });
    parser.on('error', (error: unknown) => {
      reject(malformed(reasonOf(error)));
    });
    parser.on('close', () => {
      if (tooMany) {
        reject(
          new SluiceError(
            'SLUICE_MULTIPART_TOO_MANY_PARTS',
            `the multipart/form-data body has more than ${String(limits.maxParts)} parts; send at most ${String(limits.maxParts)} parts (data parts and fields together) per request`,
            { maxParts: limits.maxParts },
          ),
        );
        return;
      }
      if (unnamed !== undefined) {
        reject(malformed(`part ${String(unnamed)} has no name (Content-Disposition: form-data; name="…"), as every part must`));
        return;
      }
      Promise.all(parts).then(resolve, reject);
    });
    parser.end(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  });
}
