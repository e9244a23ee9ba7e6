import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-files/package-root.js';
import { buildZip, type ZipEntrySpec } from './zip-builder.js';

const HANDLER_MODELS = join(packageRoot(), 'test', 'fixtures', 'handler-models');

/** A TorchServe `MAR-INF/MANIFEST.json` entry for `model`. */
export function marManifest(model: Readonly<Record<string, unknown>>): ZipEntrySpec {
  return { name: 'MAR-INF/MANIFEST.json', content: JSON.stringify({ createdOn: '01/01/2025 00:00:00', runtime: 'python', model, archiverVersion: '0.12.0' }), deflate: true };
}

/** `index_to_name.json` of the colours model, in ImageNet's `[id, name]` form for two of its classes. */
const COLOURS_INDEX = { '0': ['c0', 'red'], '1': ['c1', 'green'], '2': 'blue', '3': 'white', '4': 'black' };

/** The colours model packed as torch-model-archiver packs an ONNX image classifier. */
export async function coloursMar(extra: readonly ZipEntrySpec[] = [], model: Readonly<Record<string, unknown>> = {}): Promise<Buffer> {
  return buildZip([
    marManifest({ modelName: 'colours', modelVersion: '2.0', serializedFile: 'colours.onnx', handler: 'image_classifier', ...model }),
    { name: 'colours.onnx', content: await readFile(join(HANDLER_MODELS, 'colours', 'model.onnx')), deflate: true },
    { name: 'index_to_name.json', content: JSON.stringify(COLOURS_INDEX) },
    ...extra,
  ]);
}

/** The sentiment model packed as a text_classifier archive, with its tokenizer.json as an extra file. */
export async function sentimentMar(withTokenizer = true): Promise<Buffer> {
  const dir = join(HANDLER_MODELS, 'sentiment');
  const labels = (await readFile(join(dir, 'labels.txt'), 'utf8')).trim().split('\n');
  return buildZip([
    marManifest({ modelName: 'sentiment', modelVersion: '1.0', serializedFile: 'model.onnx', handler: 'text_classifier' }),
    { name: 'model.onnx', content: await readFile(join(dir, 'model.onnx')), deflate: true },
    { name: 'index_to_name.json', content: JSON.stringify(Object.fromEntries(labels.map((l, i) => [String(i), l]))) },
    ...(withTokenizer ? [{ name: 'tokenizer.json', content: await readFile(join(dir, 'tokenizer.json')), deflate: true }] : []),
  ]);
}
