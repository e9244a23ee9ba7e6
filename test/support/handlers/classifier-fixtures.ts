import { join } from 'node:path';
import sharp from 'sharp';
import { defaultHandlerFixtureDir } from '../../../scripts/build-handler-fixtures.js';
import type { Logger } from '../../../src/sdk/logging/logger.js';
import { readLabels } from '../../../src/model-store/index.js';
import type { Handler, HandlerContext, HandlerRequest, ModelDescription, Tensor } from '../../../src/sdk/index.js';
import { OnnxRuntime } from '../../../src/runtime/onnx/index.js';
import { trace } from '@opentelemetry/api';
import type { LoadedModel } from '../../../src/sdk/runtime/model-runtime.js';

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};

/** A handler context for `model` with the given settings. */
export function handlerContext(model: ModelDescription, config: Readonly<Record<string, unknown>> = {}): HandlerContext {
  return { model, logger: silentLogger, tracer: trace.getTracer('test'), signal: new AbortController().signal, config, sendPartial: () => Promise.resolve() };
}

/** One of the committed handler test models, loaded into ONNX Runtime, with its description. */
export interface FixtureModel {
  readonly description: ModelDescription;
  readonly model: LoadedModel;
}

/** Loads `test/fixtures/handler-models/<name>` (`colours` or `sentiment`) as the server would. */
export async function loadFixtureModel(name: 'colours' | 'sentiment'): Promise<FixtureModel> {
  const directory = join(defaultHandlerFixtureDir(), name);
  const model = await new OnnxRuntime().load(join(directory, 'model.onnx'));
  const labels = await readLabels(join(directory, 'labels.txt'));
  return { model, description: { name, version: '1.0', inputs: model.inputs, outputs: model.outputs, labels, directory } };
}

/** Runs one request through `handler` and the model: preprocess, run, postprocess. */
export async function classify(handler: Handler, fixture: FixtureModel, request: HandlerRequest, config: Readonly<Record<string, unknown>> = {}): Promise<unknown> {
  const context = handlerContext(fixture.description, config);
  const [prepared] = await handler.preprocess([request], context);
  if (prepared === undefined) throw new Error('preprocess returned nothing');
  const outputs: Tensor[] = await fixture.model.run(prepared.inputs);
  const [answer] = await handler.postprocess([{ request, outputs, state: prepared.state }], context);
  return answer;
}

/** An RGB colour, 0–255 per channel. */
export type Rgb = readonly [number, number, number];

/** A solid image of one colour, encoded as `format`. */
export async function solidImage(colour: Rgb, format: 'png' | 'jpeg' | 'webp', width = 40, height = 30): Promise<Uint8Array> {
  const [r, g, b] = colour;
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .toFormat(format)
    .toBuffer();
}

/** A PNG of vertical stripes of equal width, one per colour, left to right. */
export async function stripedImage(colours: readonly Rgb[], stripeWidth: number, height: number): Promise<Uint8Array> {
  const width = stripeWidth * colours.length;
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set(colours[Math.floor(x / stripeWidth)] ?? [0, 0, 0], (y * width + x) * 3);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** A request carrying raw bytes, as `/predictions` hands an image upload to a handler. */
export function bytesRequest(body: Uint8Array, contentType = 'image/png'): HandlerRequest {
  return { body, contentType };
}
