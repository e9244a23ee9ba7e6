import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../src/common/package-root.js';
import { buildCnnModel } from './cnn-model.js';
import { CNN_MANIFEST, IRIS_MANIFEST, IRIS_QUICK_MANIFEST, MLP_MANIFEST } from './demo-manifests.js';
import { IRIS_SPECIES, loadIrisDataset } from './iris-dataset.js';
import { buildMlpModel } from './mlp-model.js';
import { buildIrisModel, trainIris } from './train-iris.js';

/** The committed model store the demo models belong in. */
export function defaultModelStore(): string {
  return join(packageRoot(), 'model-store');
}

/** What {@link buildDemoModels} did. */
export interface DemoModelsBuild {
  /** Every file written, as absolute paths. */
  readonly files: readonly string[];
  /** Training accuracy of the iris classifier, in [0, 1]. */
  readonly irisTrainingAccuracy: number;
}

/**
 * (Re)builds the demo models into `outDir`: `iris/` (trained softmax regression, labels, manifest),
 * `mlp/` (the seeded benchmark MLP, manifest) and `cnn/` (the seeded benchmark CNN, manifest).
 * Deterministic: the same sources give the same bytes.
 */
export async function buildDemoModels(outDir: string = defaultModelStore()): Promise<DemoModelsBuild> {
  const dataset = await loadIrisDataset();
  const iris = trainIris(dataset);
  // Few steps on purpose: a classifier that is often unsure, so the second opinion has work to do.
  const irisQuick = trainIris(dataset, { iterations: 30, learningRate: 0.5 });
  const files: ReadonlyArray<readonly [string, string | Uint8Array]> = [
    ['iris/model.onnx', buildIrisModel(iris)],
    ['iris/labels.txt', IRIS_SPECIES.join('\n') + '\n'],
    ['iris/model.yaml', IRIS_MANIFEST],
    ['iris-quick/model.onnx', buildIrisModel(irisQuick)],
    ['iris-quick/labels.txt', IRIS_SPECIES.join('\n') + '\n'],
    ['iris-quick/model.yaml', IRIS_QUICK_MANIFEST],
    ['mlp/model.onnx', buildMlpModel()],
    ['mlp/model.yaml', MLP_MANIFEST],
    ['cnn/model.onnx', buildCnnModel()],
    ['cnn/model.yaml', CNN_MANIFEST],
  ];
  const written: string[] = [];
  for (const [relativePath, content] of files) {
    const path = resolve(outDir, relativePath);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    written.push(path);
  }
  return { files: written, irisTrainingAccuracy: iris.trainingAccuracy };
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
  const outDir = process.argv[2] ?? defaultModelStore();
  buildDemoModels(outDir).then(
    (build) => {
      for (const path of build.files) console.log(`wrote ${path}`);
      console.log(`iris training accuracy: ${(build.irisTrainingAccuracy * 100).toFixed(1)} %`);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
