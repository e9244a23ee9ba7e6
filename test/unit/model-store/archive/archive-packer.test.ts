import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import { packModelArchive } from '../../../../src/model-store/index.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { writeIrisModel } from '../../../support/model-fixture.js';
import { sha256 } from '../../../support/tar-builder.js';

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
});
afterEach(async () => {
  await cleanup();
});

async function entriesOf(archive: Buffer): Promise<{ name: string; type: string; content: string }[]> {
  const extractor = tarExtract();
  const entries: { name: string; type: string; content: string }[] = [];
  const reading = (async () => {
    for await (const entry of extractor) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      entries.push({ name: entry.header.name, type: entry.header.type, content: Buffer.concat(chunks).toString('utf8') });
    }
  })();
  extractor.end(gunzipSync(archive));
  await reading;
  return entries;
}

describe('packModelArchive', () => {
  it('stores SLUICE-ARCHIVE.json first, then every file sorted by path', async () => {
    const model = await writeIrisModel(join(root, 'iris'));
    await mkdir(join(model, 'extra'));
    await writeFile(join(model, 'extra', 'notes.txt'), 'notes');
    const out = join(root, 'out', 'iris.sluice');
    const result = await packModelArchive(model, out);
    const entries = await entriesOf(await readFile(out));
    expect(entries.map((entry) => entry.name)).toEqual(['SLUICE-ARCHIVE.json', 'extra/notes.txt', 'labels.txt', 'model.onnx', 'model.yaml']);
    expect(entries.every((entry) => entry.type === 'file')).toBe(true);
    expect(result.files.map((file) => file.path)).toEqual(['extra/notes.txt', 'labels.txt', 'model.onnx', 'model.yaml']);
  });

  it('records each file with its size and SHA-256', async () => {
    const model = await writeIrisModel(join(root, 'iris'));
    const out = join(root, 'iris.sluice');
    const result = await packModelArchive(model, out);
    const manifestEntry = (await entriesOf(await readFile(out)))[0]!;
    const archiveManifest = JSON.parse(manifestEntry.content) as { format: number; name: string; version: string; files: unknown[] };
    const labels = 'setosa\nversicolor\nvirginica\n';
    expect(archiveManifest).toMatchObject({ format: 1, name: 'iris', version: '1.0', files: result.files });
    expect(result.files.find((file) => file.path === 'labels.txt')).toEqual({ path: 'labels.txt', size: labels.length, sha256: sha256(labels) });
  });

  it('returns name, version and archive size', async () => {
    const model = await writeIrisModel(join(root, 'iris'));
    const out = join(root, 'iris.sluice');
    const result = await packModelArchive(model, out);
    expect([result.name, result.version, result.bytes]).toEqual(['iris', '1.0', (await stat(out)).size]);
  });

  it('stores a link to a file inside the directory as a regular file', async () => {
    const model = await writeIrisModel(join(root, 'iris'));
    await symlink('labels.txt', join(model, 'classes.txt'));
    const out = join(root, 'iris.sluice');
    await packModelArchive(model, out);
    const classes = (await entriesOf(await readFile(out))).find((entry) => entry.name === 'classes.txt');
    expect(classes).toEqual({ name: 'classes.txt', type: 'file', content: 'setosa\nversicolor\nvirginica\n' });
  });

  it('refuses a link that leads outside the model directory and writes nothing', async () => {
    const model = await writeIrisModel(join(root, 'iris'));
    await writeFile(join(root, 'secret.txt'), 'secret');
    await symlink(join(root, 'secret.txt'), join(model, 'leak.txt'));
    await mkdir(join(root, 'out'));
    await expect(packModelArchive(model, join(root, 'out', 'iris.sluice'))).rejects.toMatchObject({
      code: 'SLUICE_ARCHIVE_UNSAFE_PATH',
      message: `${join(model, 'leak.txt')}: is a symbolic link to ${join(root, 'secret.txt')}, outside the directory being packed; replace the link with a copy of the file or remove it`,
    });
    expect(await readdir(join(root, 'out'))).toEqual([]);
  });

  it('refuses to pack a model with an invalid manifest', async () => {
    const model = await writeIrisModel(join(root, 'iris'), 'name: iris\nversion: "1"\nmodel: missing.onnx\n');
    await expect(packModelArchive(model, join(root, 'iris.sluice'))).rejects.toMatchObject({ code: 'SLUICE_MANIFEST_INVALID' });
  });

  it('refuses to write the archive into the model directory', async () => {
    const model = await writeIrisModel(join(root, 'iris'));
    await expect(packModelArchive(model, join(model, 'iris.sluice'))).rejects.toMatchObject({
      code: 'SLUICE_ARCHIVE_INVALID',
      message: `${join(model, 'iris.sluice')}: lies inside the directory being packed, ${model}; write the archive somewhere else`,
    });
  });

  it('replaces an existing archive and leaves no temporary file', async () => {
    const model = await writeIrisModel(join(root, 'iris'));
    await mkdir(join(root, 'out'));
    await writeFile(join(root, 'out', 'iris.sluice'), 'old');
    await packModelArchive(model, join(root, 'out', 'iris.sluice'));
    expect(await readdir(join(root, 'out'))).toEqual(['iris.sluice']);
  });
});
