import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { isSluiceError } from '../../../../src/sdk/errors/index.js';
import {
  extractModelArchive,
  loadManifest,
  packModelArchive,
  scanModelStore,
  type ArchiveLimits,
} from '../../../../src/model-store/index.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { writeIrisModel } from '../../../support/model-fixture.js';
import { archiveManifestEntry, buildArchive, buildTar, patchDeclaredSize, sha256, type TarEntrySpec } from '../../../support/tar-builder.js';

let root: string;
let store: string;
let sibling: string;
let archive: string;
let cleanup: () => Promise<void>;

const MANIFEST = 'name: iris\nversion: "1.0"\nmodel: model.onnx\n';
const FILES = { 'model.yaml': MANIFEST, 'model.onnx': 'weights' } as const;
const REPACK = "pack the directory again with `sluice archive`";

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
  store = join(root, 'store');
  sibling = join(root, 'sibling');
  archive = join(root, 'in', 'model.sluice');
  await mkdir(store);
  await mkdir(sibling);
  await mkdir(join(root, 'in'));
});
afterEach(async () => {
  await cleanup();
});

/** The archive's regular files as entries, in order. */
function fileEntries(files: Readonly<Record<string, string | Buffer>> = FILES): TarEntrySpec[] {
  return Object.entries(files).map(([name, content]) => ({ header: { name }, content }));
}

async function gzipOf(entries: readonly TarEntrySpec[]): Promise<Buffer> {
  return gzipSync(await buildTar(entries));
}

async function extractionError(bytes: Buffer, limits?: Partial<ArchiveLimits>): Promise<{ code: string; message: string }> {
  await writeFile(archive, bytes);
  try {
    await extractModelArchive(archive, store, limits);
  } catch (error) {
    if (isSluiceError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('extraction succeeded');
}

/** Nothing outside the store changed, and the store holds nothing but an empty `.extracted`. */
async function expectNothingWritten(): Promise<void> {
  expect({
    root: (await readdir(root)).sort(),
    sibling: await readdir(sibling),
    store: await readdir(store),
    extracted: await readdir(join(store, '.extracted')),
  }).toEqual({ root: ['in', 'sibling', 'store'], sibling: [], store: ['.extracted'], extracted: [] });
}

describe('extractModelArchive', () => {
  describe('with a good archive', () => {
    it('round-trips a packed model directory', async () => {
      const model = await writeIrisModel(join(root, 'iris'));
      await packModelArchive(model, archive);
      const dir = await extractModelArchive(archive, store);
      const manifest = await loadManifest(dir);
      expect([manifest.name, manifest.version, await readFile(manifest.labelsPath!, 'utf8')]).toEqual(['iris', '1.0', 'setosa\nversicolor\nvirginica\n']);
    });

    it('names the directory after model, version and archive digest', async () => {
      const bytes = await buildArchive(FILES);
      await writeFile(archive, bytes);
      expect(await extractModelArchive(archive, store)).toBe(join(store, '.extracted', `iris-1.0-${sha256(bytes).slice(0, 12)}`));
    });

    it('keeps SLUICE-ARCHIVE.json next to the model files', async () => {
      await writeFile(archive, await buildArchive(FILES));
      const dir = await extractModelArchive(archive, store);
      expect((await readdir(dir)).sort()).toEqual(['SLUICE-ARCHIVE.json', 'model.onnx', 'model.yaml']);
    });

    it('reuses an earlier extraction of the same archive and leaves no temporary directory', async () => {
      await writeFile(archive, await buildArchive(FILES));
      const first = await extractModelArchive(archive, store);
      const second = await extractModelArchive(archive, store);
      expect([second, await readdir(join(store, '.extracted'))]).toEqual([first, [first.slice(join(store, '.extracted').length + 1)]]);
    });

    it('accepts directory entries and ./ prefixes as tar writes them', async () => {
      const files = { 'model.yaml': 'name: iris\nversion: "1.0"\nmodel: weights/model.onnx\n', 'weights/model.onnx': 'w' };
      const bytes = await gzipOf([
        { header: { name: './', type: 'directory' } },
        archiveManifestEntry(files),
        { header: { name: './weights/', type: 'directory' } },
        { header: { name: './weights/model.onnx' }, content: 'w' },
        { header: { name: './model.yaml' }, content: files['model.yaml'] },
      ]);
      await writeFile(archive, bytes);
      const manifest = await loadManifest(await extractModelArchive(archive, store));
      expect(await readFile(manifest.modelPath, 'utf8')).toBe('w');
    });

    it('stays invisible to store scans when the archive sits in the store', async () => {
      const inStore = join(store, 'iris.sluice');
      await writeFile(inStore, await buildArchive(FILES));
      await extractModelArchive(inStore, store);
      expect(await scanModelStore(store)).toEqual([{ source: 'archive', path: inStore, storeName: 'iris.sluice' }]);
    });
  });

  describe('with a bad archive', () => {
    const outside = (): string => join(sibling, 'evil');
    const GIB5 = 5 * 1024 * 1024 * 1024;

    type Case = readonly [title: string, build: () => Promise<Buffer>, code: string, problem: () => string, limits?: Partial<ArchiveLimits>];
    const corpus: readonly Case[] = [
      [
        'an absolute path',
        () => gzipOf([archiveManifestEntry(FILES), ...fileEntries(), { header: { name: outside() }, content: 'x' }]),
        'SLUICE_ARCHIVE_UNSAFE_PATH',
        () => `entry ${JSON.stringify(outside())} is an absolute path; only paths relative to the model directory are allowed; archives may only hold paths inside the archive`,
      ],
      [
        'a ../ path',
        () => gzipOf([archiveManifestEntry(FILES), { header: { name: '../../../sibling/evil' }, content: 'x' }]),
        'SLUICE_ARCHIVE_UNSAFE_PATH',
        () => `entry "../../../sibling/evil" contains a '..' segment; paths must stay inside the model directory; archives may only hold paths inside the archive`,
      ],
      [
        'a path climbing out through a subdirectory',
        () => gzipOf([{ header: { name: 'a/../../evil' }, content: 'x' }]),
        'SLUICE_ARCHIVE_UNSAFE_PATH',
        () => `entry "a/../../evil" contains a '..' segment; paths must stay inside the model directory; archives may only hold paths inside the archive`,
      ],
      [
        'a backslash path',
        () => gzipOf([{ header: { name: '..\\..\\evil' }, content: 'x' }]),
        'SLUICE_ARCHIVE_UNSAFE_PATH',
        () => `entry "..\\\\..\\\\evil" contains a backslash; separate directories with '/'; archives may only hold paths inside the archive`,
      ],
      [
        'a drive letter',
        () => gzipOf([{ header: { name: 'C:/evil' }, content: 'x' }]),
        'SLUICE_ARCHIVE_UNSAFE_PATH',
        () => `entry "C:/evil" is an absolute path; only paths relative to the model directory are allowed; archives may only hold paths inside the archive`,
      ],
      [
        'a NUL byte in a long name',
        () => gzipOf([{ header: { name: 'model.onnx\0../../evil', pax: {} }, content: 'x' }]),
        'SLUICE_ARCHIVE_UNSAFE_PATH',
        () => `entry "model.onnx\\u0000../../evil" contains a NUL byte; archives may only hold paths inside the archive`,
      ],
      [
        'a symbolic link to /etc/passwd',
        () => gzipOf([archiveManifestEntry(FILES), { header: { name: 'passwd', type: 'symlink', linkname: '/etc/passwd' } }]),
        'SLUICE_ARCHIVE_UNSAFE_PATH',
        () => 'entry "passwd" is a symbolic link (to "/etc/passwd"); archives must contain regular files only',
      ],
      [
        'a symbolic link to ..',
        () => gzipOf([{ header: { name: 'up', type: 'symlink', linkname: '..' } }, { header: { name: 'up/evil' }, content: 'x' }]),
        'SLUICE_ARCHIVE_UNSAFE_PATH',
        () => 'entry "up" is a symbolic link (to ".."); archives must contain regular files only',
      ],
      [
        'a hard link outside',
        () => gzipOf([{ header: { name: 'hard', type: 'link', linkname: '../../../sibling/evil' } }]),
        'SLUICE_ARCHIVE_UNSAFE_PATH',
        () => 'entry "hard" is a hard link (to "../../../sibling/evil"); archives must contain regular files only',
      ],
      [
        'a character device',
        () => gzipOf([{ header: { name: 'tty', type: 'character-device', devmajor: 5, devminor: 0 } }]),
        'SLUICE_ARCHIVE_INVALID',
        () => 'entry "tty" is a character device; archives must contain regular files only',
      ],
      [
        'a FIFO',
        () => gzipOf([{ header: { name: 'pipe', type: 'fifo' } }]),
        'SLUICE_ARCHIVE_INVALID',
        () => 'entry "pipe" is a FIFO; archives must contain regular files only',
      ],
      [
        'an entry whose header declares a huge size',
        async () => gzipSync(patchDeclaredSize(await buildTar([{ header: { name: 'model.onnx' }, content: 'x' }]), 0, GIB5)),
        'SLUICE_ARCHIVE_ENTRY_TOO_LARGE',
        () => `entry "model.onnx" declares ${GIB5} bytes, more than the limit of 2147483648 bytes per file; raise archive.maxEntryBytes if the model really needs it`,
      ],
      [
        'an entry whose pax header declares a huge size',
        () => gzipOf([{ header: { name: 'model.onnx', pax: { size: String(GIB5) } }, content: '' }]),
        'SLUICE_ARCHIVE_ENTRY_TOO_LARGE',
        () => `entry "model.onnx" declares ${GIB5} bytes, more than the limit of 2147483648 bytes per file; raise archive.maxEntryBytes if the model really needs it`,
      ],
      [
        'files adding up to more than the total limit',
        () => gzipOf([archiveManifestEntry(FILES), { header: { name: 'a.bin' }, content: Buffer.alloc(4000) }, { header: { name: 'b.bin' }, content: Buffer.alloc(4000) }]),
        'SLUICE_ARCHIVE_ENTRY_TOO_LARGE',
        () => 'files add up to more than the limit of 6000 bytes; raise archive.maxTotalBytes if the model really needs it',
        { maxTotalBytes: 6000 },
      ],
      [
        'gzip data that inflates far beyond the size limits',
        async () => gzipSync(Buffer.concat([await buildTar([archiveManifestEntry(FILES), ...fileEntries()]), Buffer.alloc(1024 * 1024)])),
        'SLUICE_ARCHIVE_ENTRY_TOO_LARGE',
        () => `unpacks to more than ${6000 + 5 * 4096} bytes, more than its size limits allow; raise archive.maxTotalBytes if the model really needs it`,
        { maxTotalBytes: 6000, maxEntries: 3 },
      ],
      [
        'too many entries',
        () => gzipOf([archiveManifestEntry(FILES), ...fileEntries(), { header: { name: 'c' }, content: 'c' }, { header: { name: 'd' }, content: 'd' }]),
        'SLUICE_ARCHIVE_ENTRY_TOO_LARGE',
        () => 'has more than 3 entries, the most an archive may have; remove files the model does not need, or raise archive.maxEntries if it really needs them',
        { maxEntries: 3 },
      ],
      [
        'a missing SLUICE-ARCHIVE.json',
        () => gzipOf(fileEntries()),
        'SLUICE_ARCHIVE_INVALID',
        () => `has no SLUICE-ARCHIVE.json, so it was not made by Sluice; ${REPACK}`,
      ],
      [
        'a hash mismatch',
        () => gzipOf([archiveManifestEntry(FILES), ...fileEntries({ ...FILES, 'model.onnx': 'WEIGHTS' })]),
        'SLUICE_ARCHIVE_INVALID',
        () =>
          `holds "model.onnx" with SHA-256 ${sha256('WEIGHTS')}, but SLUICE-ARCHIVE.json lists ${sha256('weights')}; the archive is damaged or was changed after packing: ${REPACK}`,
      ],
      [
        'a size mismatch',
        () => gzipOf([archiveManifestEntry(FILES), ...fileEntries({ ...FILES, 'model.onnx': 'weights!' })]),
        'SLUICE_ARCHIVE_INVALID',
        () => `holds "model.onnx" with 8 bytes, but SLUICE-ARCHIVE.json lists 7; the archive is damaged or was changed after packing: ${REPACK}`,
      ],
      [
        'a file SLUICE-ARCHIVE.json does not list',
        () => gzipOf([archiveManifestEntry(FILES), ...fileEntries(), { header: { name: 'extra.bin' }, content: 'x' }]),
        'SLUICE_ARCHIVE_INVALID',
        () => `holds "extra.bin", which SLUICE-ARCHIVE.json does not list; the archive was changed after packing: ${REPACK}`,
      ],
      [
        'a listed file that is missing',
        () => gzipOf([archiveManifestEntry({ ...FILES, 'vocab.txt': 'v' }), ...fileEntries()]),
        'SLUICE_ARCHIVE_INVALID',
        () => `SLUICE-ARCHIVE.json lists "vocab.txt", which the archive does not hold; ${REPACK}`,
      ],
      [
        'a listed path that climbs out',
        () => gzipOf([archiveManifestEntry({ ...FILES, '../evil': 'x' }), ...fileEntries()]),
        'SLUICE_ARCHIVE_UNSAFE_PATH',
        () => `SLUICE-ARCHIVE.json lists the path "../evil", which is not a plain relative path; ${REPACK}`,
      ],
      [
        'an entry that appears twice',
        () => gzipOf([archiveManifestEntry(FILES), ...fileEntries(), { header: { name: './model.onnx' }, content: 'weights' }]),
        'SLUICE_ARCHIVE_INVALID',
        () => `holds "model.onnx" twice; ${REPACK}`,
      ],
      [
        'a directory named SLUICE-ARCHIVE.json',
        () => gzipOf([archiveManifestEntry(FILES), { header: { name: 'SLUICE-ARCHIVE.json/', type: 'directory' } }, ...fileEntries()]),
        'SLUICE_ARCHIVE_INVALID',
        () => `entry "SLUICE-ARCHIVE.json/" takes the place of SLUICE-ARCHIVE.json, which must be a file at the archive root; ${REPACK}`,
      ],
      [
        'a listed file below a directory named SLUICE-ARCHIVE.json',
        () => gzipOf([archiveManifestEntry({ ...FILES, 'SLUICE-ARCHIVE.json/x': 'x' }), ...fileEntries({ ...FILES, 'SLUICE-ARCHIVE.json/x': 'x' })]),
        'SLUICE_ARCHIVE_INVALID',
        () => `entry "SLUICE-ARCHIVE.json/x" takes the place of SLUICE-ARCHIVE.json, which must be a file at the archive root; ${REPACK}`,
      ],
      [
        'SLUICE-ARCHIVE.json that is not JSON',
        () => gzipOf([{ header: { name: 'SLUICE-ARCHIVE.json' }, content: '{"format": 1, "files": [' }, ...fileEntries()]),
        'SLUICE_ARCHIVE_INVALID',
        () => `SLUICE-ARCHIVE.json is not valid JSON (Unexpected end of JSON input); ${REPACK}`,
      ],
      [
        'SLUICE-ARCHIVE.json of another format',
        () =>
          gzipOf([
            { header: { name: 'SLUICE-ARCHIVE.json' }, content: JSON.stringify({ format: 2, name: 'iris', version: '1.0', createdAt: '2024-01-01T00:00:00Z', files: [] }) },
            ...fileEntries(),
          ]),
        'SLUICE_ARCHIVE_INVALID',
        () => 'SLUICE-ARCHIVE.json: `format` must be equal to constant (got 2)',
      ],
      [
        'no model.yaml',
        () => gzipOf([archiveManifestEntry({ 'model.onnx': 'weights' }), ...fileEntries({ 'model.onnx': 'weights' })]),
        'SLUICE_ARCHIVE_INVALID',
        () => `has no model.yaml at its root; ${REPACK}`,
      ],
      [
        'an invalid model.yaml',
        () => gzipOf([archiveManifestEntry({ ...FILES, 'model.yaml': 'name: iris\nversion: "1.0"\n' }), ...fileEntries({ ...FILES, 'model.yaml': 'name: iris\nversion: "1.0"\n' })]),
        'SLUICE_MANIFEST_INVALID',
        () => '(model.yaml): `model` is required',
      ],
      [
        'a model.yaml naming another model',
        () => gzipOf([archiveManifestEntry(FILES, 'other', '2'), ...fileEntries()]),
        'SLUICE_ARCHIVE_INVALID',
        () => `SLUICE-ARCHIVE.json names other 2 but model.yaml names iris 1.0; ${REPACK}`,
      ],
      ['bytes that are not gzip', () => Promise.resolve(Buffer.from('just some text, not an archive')), 'SLUICE_ARCHIVE_INVALID', () => "is not gzip-compressed; a .sluice archive is a gzip-compressed tar file made by Sluice's archive packer"],
      [
        'truncated gzip',
        async () => {
          const whole = await buildArchive({ ...FILES, 'big.bin': Buffer.from(Array.from({ length: 20000 }, (_, i) => i % 251)) });
          return whole.subarray(0, Math.floor(whole.length * 0.8));
        },
        'SLUICE_ARCHIVE_INVALID',
        () => 'is truncated (the compressed data ends early); copy or download the archive again',
      ],
      [
        'gzip that holds no tar',
        () => Promise.resolve(gzipSync(Buffer.from('hello world '.repeat(100)))),
        'SLUICE_ARCHIVE_INVALID',
        () => `does not hold tar data inside its gzip compression; ${REPACK}`,
      ],
    ];

    const cases = corpus.map(([title, build, code, problem, limits]) => ({ title, build, code, problem, limits }));
    it.each(cases)('refuses $title and writes nothing', async ({ build, code, problem, limits }) => {
      const error = await extractionError(await build(), limits);
      const separator = code === 'SLUICE_MANIFEST_INVALID' ? ' ' : ': ';
      expect(error).toEqual({ code, message: `${archive}${separator}${problem()}` });
      await expectNothingWritten();
    });

    it.each([
      ['a file', (path: string) => writeFile(path, 'not a directory')],
      ['a symbolic link', (path: string) => symlink(sibling, path)],
    ])('refuses with SLUICE_CONFIG_INVALID naming the path when %s stands where the archive is unpacked, and leaves no temporary directory', async (_case, put) => {
      const bytes = await buildArchive(FILES);
      await writeFile(archive, bytes);
      const finalDir = join(store, '.extracted', `iris-1.0-${sha256(bytes).slice(0, 12)}`);
      await mkdir(join(store, '.extracted'));
      await put(finalDir);
      await expect(extractModelArchive(archive, store)).rejects.toMatchObject({
        code: 'SLUICE_CONFIG_INVALID',
        message: `${finalDir}: is not a directory, and this archive is unpacked there (a file or a symbolic link stands in its place); remove it and register the archive again`,
      });
      expect(await readdir(join(store, '.extracted'))).toEqual([finalDir.slice(join(store, '.extracted').length + 1)]);
    });

    it('reports an archive cut off while an entry is being written as truncated', async () => {
      // Bytes gzip cannot shrink, so that most cuts fall inside this entry's data.
      let seed = 1;
      const noise = Buffer.from(Array.from({ length: 256 * 1024 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 23));
      const whole = await buildArchive({ ...FILES, 'noise.bin': noise });
      const otherwise: string[] = [];
      for (let part = 1; part < 32; part++) {
        const cut = Math.floor((whole.length * part) / 32);
        const { message } = await extractionError(whole.subarray(0, cut));
        if (message !== `${archive}: is truncated (the compressed data ends early); copy or download the archive again`) otherwise.push(`${cut}: ${message}`);
      }
      expect(otherwise).toEqual([]);
      await expectNothingWritten();
    });

    it('reports a missing archive file', async () => {
      await expect(extractModelArchive(join(root, 'in', 'nope.sluice'), store)).rejects.toMatchObject({
        code: 'SLUICE_MANIFEST_NOT_FOUND',
        message: `${join(root, 'in', 'nope.sluice')}: no such archive file; check the path`,
      });
    });
  });
});
