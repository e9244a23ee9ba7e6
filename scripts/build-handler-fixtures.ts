import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../src/common/package-root.js';
import { COLOUR_LABELS, buildColourModel } from './colour-model.js';
import { COLOURS_MANIFEST, SENTIMENT_MANIFEST } from './handler-fixture-manifests.js';
import { SENTIMENT_LABELS, buildSentimentModel, buildSentimentTokenizer } from './sentiment-model.js';

/** Where the committed test models of the image and text classifier handlers live. */
export function defaultHandlerFixtureDir(): string {
  return join(packageRoot(), 'test', 'fixtures', 'handler-models');
}

/** Every file {@link buildHandlerFixtures} writes, relative to its output directory, with its content. */
export function handlerFixtureFiles(): ReadonlyArray<readonly [string, string | Uint8Array]> {
  return [
    ['colours/model.onnx', buildColourModel()],
    ['colours/labels.txt', COLOUR_LABELS.join('\n') + '\n'],
    ['colours/model.yaml', COLOURS_MANIFEST],
    ['sentiment/model.onnx', buildSentimentModel()],
    ['sentiment/labels.txt', SENTIMENT_LABELS.join('\n') + '\n'],
    ['sentiment/tokenizer.json', buildSentimentTokenizer()],
    ['sentiment/model.yaml', SENTIMENT_MANIFEST],
  ];
}

/**
 * (Re)builds the handler test models into `outDir`: `colours/` (image-classifier) and `sentiment/`
 * (text-classifier, with its tokenizer). Deterministic: the same sources give the same bytes. Returns
 * the absolute paths written.
 */
export async function buildHandlerFixtures(outDir: string = defaultHandlerFixtureDir()): Promise<string[]> {
  const written: string[] = [];
  for (const [relativePath, content] of handlerFixtureFiles()) {
    const path = resolve(outDir, relativePath);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    written.push(path);
  }
  return written;
}

/** True when Node was started on this file (directly or through a symlink), not when it is imported. */
function isEntryScript(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryScript()) {
  buildHandlerFixtures(process.argv[2] ?? defaultHandlerFixtureDir()).then(
    (files) => {
      for (const path of files) console.log(`wrote ${path}`);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
