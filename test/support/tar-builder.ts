import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { pack as tarPack, type Header } from 'tar-stream';

/** One entry of a hand-built tar: a header and, for files, the bytes. */
export interface TarEntrySpec {
  readonly header: Partial<Header> & { readonly name: string };
  readonly content?: string | Buffer;
}

/** Builds an uncompressed tar with exactly the given entries, in order. */
export async function buildTar(entries: readonly TarEntrySpec[]): Promise<Buffer> {
  const tar = tarPack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of tar) chunks.push(chunk as Buffer);
  })();
  for (const { header, content } of entries) {
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null): void => {
        if (error) reject(error);
        else resolve();
      };
      if (content === undefined) tar.entry({ mtime: new Date(0), ...header }, done);
      else tar.entry({ mtime: new Date(0), ...header }, content, done);
    });
  }
  tar.finalize();
  await collected;
  return Buffer.concat(chunks);
}

/** SHA-256 of some bytes, lowercase hex. */
export function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** A `SLUICE-ARCHIVE.json` entry listing `files` with their true sizes and digests. */
export function archiveManifestEntry(files: Readonly<Record<string, string | Buffer>>, name = 'iris', version = '1.0'): TarEntrySpec {
  const listed = Object.entries(files).map(([path, content]) => ({
    path,
    size: Buffer.byteLength(content),
    sha256: sha256(content),
  }));
  const manifest = { format: 1, name, version, createdAt: '2024-01-01T00:00:00.000Z', files: listed };
  return { header: { name: 'SLUICE-ARCHIVE.json' }, content: JSON.stringify(manifest) };
}

/** A gzip'd tar holding a valid archive manifest followed by `files` as regular entries. */
export async function buildArchive(files: Readonly<Record<string, string | Buffer>>): Promise<Buffer> {
  const entries: TarEntrySpec[] = [archiveManifestEntry(files)];
  for (const [name, content] of Object.entries(files)) entries.push({ header: { name }, content });
  return gzipSync(await buildTar(entries));
}

/**
 * Rewrites the size field of the tar header at `offset` (octal, as tar stores it) and fixes the
 * header checksum, so the header declares `size` bytes without the archive holding them.
 */
export function patchDeclaredSize(tar: Buffer, offset: number, size: number): Buffer {
  const patched = Buffer.from(tar);
  patched.write(size.toString(8).padStart(11, '0') + '\0', offset + 124, 12, 'ascii');
  patched.fill(' ', offset + 148, offset + 156);
  let sum = 0;
  for (let i = offset; i < offset + 512; i++) sum += patched[i] ?? 0;
  patched.write(sum.toString(8).padStart(6, '0') + '\0 ', offset + 148, 8, 'ascii');
  return patched;
}
