/** `test/fixtures/handler-models/colours/model.yaml`. */
export const COLOURS_MANIFEST = `name: colours
version: "1.0"
description: Test model of the image-classifier handler, the colour of an image from the mean of each channel.
runtime: onnx
model: model.onnx
handler: image-classifier
labels: labels.txt
handlerOptions:
  mean: [0.5, 0.5, 0.5]
  std: [0.5, 0.5, 0.5]
batching: { maxBatchSize: 8, maxBatchDelayMs: 0 }
workers: { min: 1, max: 1 }
`;

/** `test/fixtures/handler-models/sentiment/model.yaml`. */
export const SENTIMENT_MANIFEST = `name: sentiment
version: "1.0"
description: Test model of the text-classifier handler, sentiment as a masked bag of hand-weighted words.
runtime: onnx
model: model.onnx
handler: text-classifier
labels: labels.txt
handlerOptions:
  tokenizer: tokenizer.json
batching: { maxBatchSize: 8, maxBatchDelayMs: 0 }
workers: { min: 1, max: 1 }
`;
