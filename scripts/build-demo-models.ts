import { join } from 'node:path';
import { packageRoot } from '../src/package-files/package-root.js';
import { isEntryScript, writeGeneratedFiles, type GeneratedFile } from './generated-files.js';
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
  const files: readonly GeneratedFile[] = [
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
  return { files: await writeGeneratedFiles(outDir, files), irisTrainingAccuracy: iris.trainingAccuracy };
}


if (isEntryScript(import.meta.url)) {
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
