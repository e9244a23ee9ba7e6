import { join } from 'node:path';
import { packageRoot } from '../src/package-files/package-root.js';
import { isEntryScript, writeGeneratedFiles, type GeneratedFile } from './generated-files.js';
import { COLOUR_LABELS, buildColourModel } from './colour-model.js';
import { COLOURS_MANIFEST, SENTIMENT_MANIFEST } from './handler-fixture-manifests.js';
import { SENTIMENT_LABELS, buildSentimentModel, buildSentimentTokenizer } from './sentiment-model.js';

/** Where the committed test models of the image and text classifier handlers live. */
export function defaultHandlerFixtureDir(): string {
  return join(packageRoot(), 'test', 'fixtures', 'handler-models');
}

/** Every file {@link buildHandlerFixtures} writes, relative to its output directory, with its content. */
export function handlerFixtureFiles(): readonly GeneratedFile[] {
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
  return writeGeneratedFiles(outDir, handlerFixtureFiles());
}


if (isEntryScript(import.meta.url)) {
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
