import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { solidImage } from '../support/handlers/classifier-fixtures.js';
import { TYPESCRIPT_THREAD_ARGV } from '../support/handlers/typescript-threads.js';
import { startLoopbackFileServer, type LoopbackFileServer } from '../support/loopback-file-server.js';
import { coloursMar, marManifest, sentimentMar } from '../support/mar-fixtures.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { buildZip } from '../support/zip-builder.js';

describe('TorchServe .mar archives registered with POST /models', () => {
  let t: TestServer;
  let files: LoopbackFileServer;
  const register = (query: string): ReturnType<typeof requestJson> => requestJson(`${t.management}/models?${query}`, { method: 'POST' });
  /** Names left in `<store>/.extracted`: converted models, and any temporary directory a refusal left behind. */
  const extracted = async (): Promise<string[]> => (existsSync(join(t.config.modelStore, '.extracted')) ? readdir(join(t.config.modelStore, '.extracted')) : []);

  beforeAll(async () => {
    const remote = await coloursMar();
    files = await startLoopbackFileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(remote);
    });
    t = await startTestServer({
      demoModels: ['iris'],
      // The text classifier is CPU-heavy: its threads load the TypeScript sources, as tests run them.
      handlerPool: { threads: 1, execArgv: TYPESCRIPT_THREAD_ARGV },
      // The archives are registered by the tests (start-up would load the good ones).
      config: { models: ['iris'], allowedUrls: ['^http://127\\.0\\.0\\.1:\\d+/.*$'], archive: { maxEntryBytes: 4 * 1024 * 1024 } },
      prepare: async (store) => {
        await writeFile(join(store, 'colours.mar'), await coloursMar());
        await writeFile(join(store, 'sentiment.mar'), await sentimentMar());
        await writeFile(join(store, 'no-tokenizer.mar'), await sentimentMar(false));
        await writeFile(
          join(store, 'resnet.mar'),
          buildZip([marManifest({ modelName: 'resnet-18', modelVersion: '1.0', serializedFile: 'resnet18-f37072fd.pth', modelFile: 'model.py', handler: 'image_classifier' }), { name: 'resnet18-f37072fd.pth', content: 'PK weights' }, { name: 'model.py', content: 'class Net: pass' }]),
        );
        await writeFile(join(store, 'custom.mar'), await coloursMar([{ name: 'my_handler.py', content: 'def handle(): pass' }], { modelName: 'custom', handler: 'my_handler.py' }));
        await writeFile(join(store, 'not-zip.mar'), 'this is no zip');
        await writeFile(join(store, 'no-manifest.mar'), buildZip([{ name: 'model.onnx', content: 'x' }]));
        await writeFile(join(store, 'traversal.mar'), buildZip([marManifest({ modelName: 'evil', serializedFile: 'm.onnx', handler: 'image_classifier' }), { name: '../evil.txt', content: 'outside' }]));
        await writeFile(join(store, 'absolute.mar'), buildZip([{ name: '/tmp/evil-absolute.txt', content: 'outside' }]));
        await writeFile(join(store, 'link.mar'), buildZip([{ name: 'model.onnx', content: '/etc/passwd', unixMode: 0o120777 }]));
        await writeFile(join(store, 'large.mar'), await coloursMar([{ name: 'big.bin', content: Buffer.alloc(5 * 1024 * 1024), deflate: true }]));
        await writeFile(join(store, 'bomb.mar'), await coloursMar([{ name: 'bomb.bin', content: Buffer.alloc(1024 * 1024), deflate: true, claimedSize: 10 }]));
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('converts an ONNX image_classifier archive into image-classifier with its labels, and serves it', async () => {
    expect(await register('url=colours.mar')).toMatchObject({ status: 200, body: { status: 'Model "colours" Version: 2.0 registered with 1 initial workers' } });
    expect((await requestJson(`${t.management}/models/colours`)).body).toMatchObject([{ handler: 'image-classifier', modelUrl: 'colours.mar' }]);
    const answer = await requestJson(`${t.inference}/predictions/colours`, { method: 'POST', body: await solidImage([255, 0, 0], 'png'), headers: { 'content-type': 'image/png' } });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body as object).sort()).toEqual(['black', 'blue', 'green', 'red', 'white']);
  });

  it('writes model.yaml and labels.txt (the name of each class, ImageNet’s [id, name] pairs read as the name) beside the archive’s files', async () => {
    const [dir] = (await extracted()).filter((d) => d.startsWith('colours-2.0-'));
    const root = join(t.config.modelStore, '.extracted', dir ?? '');
    expect(await readFile(join(root, 'labels.txt'), 'utf8')).toBe('red\ngreen\nblue\nwhite\nblack\n');
    expect(await readFile(join(root, 'model.yaml'), 'utf8')).toContain('handler: image-classifier');
  });

  it('converts a text_classifier archive with its tokenizer.json into text-classifier', async () => {
    expect(await register('url=sentiment.mar')).toMatchObject({ status: 200 });
    const answer = await requestJson(`${t.inference}/predictions/sentiment`, { method: 'POST', body: 'what a great film', headers: { 'content-type': 'text/plain' } });
    expect({ status: answer.status, top: Object.keys(answer.body as object)[0] }).toEqual({ status: 200, top: 'positive' });
  });

  it('downloads and converts a .mar from an allowed URL', async () => {
    expect(await register(`url=${encodeURIComponent(`${files.url}/colours.mar`)}&model_name=colours-remote`)).toMatchObject({ status: 200 });
  });

  it('converts an archive with a custom handler with the handler the registration names', async () => {
    expect(await register('url=custom.mar&handler=passthrough')).toMatchObject({ status: 200 });
    expect((await requestJson(`${t.management}/models/custom`)).body).toMatchObject([{ handler: 'passthrough' }]);
  });

  it.each([
    [
      'a PyTorch checkpoint',
      'resnet.mar',
      'SLUICE_MAR_UNSUPPORTED',
      'its serialized file is a PyTorch checkpoint ("resnet18-f37072fd.pth"); Sluice runs ONNX models only: export the model to ONNX (torch.onnx.export) and pack model.onnx instead, as docs/migrating-from-torchserve.md#exporting-a-pytorch-model-to-onnx shows',
    ],
    [
      'a custom handler, with no handler given',
      'custom.mar',
      'SLUICE_MAR_UNSUPPORTED',
      'its handler "my_handler.py" is not one of TorchServe\'s base handlers Sluice maps (image_classifier → image-classifier, text_classifier → text-classifier); Python handler code cannot run in Sluice, so give the Sluice handler to use (handler=<name> when registering, --handler with import-mar)',
    ],
    ['a text_classifier without tokenizer.json', 'no-tokenizer.mar', 'SLUICE_MAR_UNSUPPORTED', "its handler text_classifier needs the model's Hugging Face tokenizer.json at the archive's root (pack it with --extra-files tokenizer.json)"],
    ['a file that is not a zip', 'not-zip.mar', 'SLUICE_ARCHIVE_INVALID', 'is not a zip file, so not a TorchServe model archive ('],
    ['an archive without MAR-INF/MANIFEST.json', 'no-manifest.mar', 'SLUICE_ARCHIVE_INVALID', 'has no MAR-INF/MANIFEST.json, so it is not a TorchServe model archive; make it with torch-model-archiver'],
    ['an entry that climbs out with ..', 'traversal.mar', 'SLUICE_ARCHIVE_UNSAFE_PATH', 'entry "../evil.txt" contains a \'..\' segment; paths must stay inside the model directory; nothing was extracted'],
    ['an entry with an absolute path', 'absolute.mar', 'SLUICE_ARCHIVE_UNSAFE_PATH', 'entry "/tmp/evil-absolute.txt" is an absolute path'],
    ['a symbolic link', 'link.mar', 'SLUICE_ARCHIVE_UNSAFE_PATH', 'entry "model.onnx" is a symbolic link'],
    ['an entry above archive.maxEntryBytes', 'large.mar', 'SLUICE_ARCHIVE_ENTRY_TOO_LARGE', 'entry "big.bin" is 5242880 bytes, above archive.maxEntryBytes (4194304)'],
    ['an entry that inflates beyond its declared size', 'bomb.mar', 'SLUICE_ARCHIVE', ''],
  ])('refuses %s with 400, writing nothing outside the store and leaving no temporary directory', async (_what, name, code, message) => {
    const { status, body } = await register(`url=${name}`);
    expect({ status, errorCode: (body as { errorCode: string }).errorCode.slice(0, code.length) }).toEqual({ status: 400, errorCode: code });
    // Named by its place in the store, never by where the server keeps the store.
    expect((body as { message: string }).message.startsWith(`${name}: ${message}`)).toBe(true);
    expect((await extracted()).filter((d) => d.startsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(t.config.modelStore, 'evil.txt'))).toBe(false);
    expect(existsSync(join(t.config.modelStore, '.extracted', 'evil.txt'))).toBe(false);
    expect(existsSync('/tmp/evil-absolute.txt')).toBe(false);
  });
});
