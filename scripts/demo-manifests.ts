/** `model-store/iris/model.yaml`. */
export const IRIS_MANIFEST = `name: iris
version: "1.0"
description: Iris species from four flower measurements (softmax regression).
runtime: onnx
model: model.onnx
handler: classifier
labels: labels.txt
batching: { maxBatchSize: 1, maxBatchDelayMs: 0 }
workers: { min: 1, max: 1 }
`;

/** The quick iris classifier: the first opinion of the `iris-second-opinion` workflow. */
export const IRIS_QUICK_MANIFEST = `name: iris-quick
version: "1.0"
description: A quick, less certain iris classifier (softmax regression trained for only a few steps); the first opinion of the iris-second-opinion workflow.
runtime: onnx
model: model.onnx
handler: classifier
labels: labels.txt
batching: { maxBatchSize: 16, maxBatchDelayMs: 0 }
workers: { min: 1, max: 1 }
`;

/** `model-store/mlp/model.yaml`. */
export const MLP_MANIFEST = `name: mlp
version: "1.0"
description: Benchmark model, a 64-256-256-10 ReLU MLP with seeded random weights (logits out).
runtime: onnx
model: model.onnx
handler: passthrough
# A partial batch waits up to 1 ms, and only for as many requests as the last batch had (clients answered
# together come back together); a lone client never waits. See docs/performance.md.
batching: { maxBatchSize: 64, maxBatchDelayMs: 1 }
workers: { min: 1, max: 2 }
# One thread per run: a run of this model is too short to share out, and waking a second thread for it
# cost more than it saved, at one client and at sixteen (see docs/performance.md).
runtimeOptions: { intraOpNumThreads: 1 }
`;

/** `model-store/cnn/model.yaml`. */
export const CNN_MANIFEST = `name: cnn
version: "1.0"
description: Benchmark model, a small 3x32x32 image CNN (3x3 convolutions 32-64-128) with seeded random weights (logits out).
runtime: onnx
model: model.onnx
handler: passthrough
batching: { maxBatchSize: 64, maxBatchDelayMs: 0 }
workers: { min: 1, max: 1 }
`;
