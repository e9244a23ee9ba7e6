import { HandlerOptions, SluiceError, type HandlerContext, type TensorSpec } from '../../src/sdk/index.js';

/** The handler's registered name. */
export const IMAGE_CLASSIFIER = 'image-classifier';

/** How an image is brought to the model's size. */
export type ResizeMode = 'center-crop' | 'fill';

/** The model input the image is written into. */
export interface ImageInput {
  readonly name: string;
  /** FP32 takes normalised values; UINT8 takes the pixels as they are. */
  readonly datatype: 'FP32' | 'UINT8';
  readonly layout: 'NCHW' | 'NHWC';
  /** 3 (RGB) or 1 (grey). */
  readonly channels: number;
  readonly height: number;
  readonly width: number;
}

/** Every setting of the handler for one model, defaults applied. */
export interface ImageClassifierOptions {
  readonly input: ImageInput;
  readonly resize: ResizeMode;
  /** For `center-crop`: the share of the resized image's shorter side the crop keeps. */
  readonly cropFraction: number;
  /** Pixel values (0–255) are multiplied by this, then `(v - mean) / std` per channel. */
  readonly scale: number;
  readonly mean: readonly number[];
  readonly std: readonly number[];
  /** Larger images (width × height) are refused. */
  readonly maxPixels: number;
  /** The output holding the class scores; the model's first output when unset. */
  readonly output?: string;
  /** Whether the scores are logits to turn into probabilities (false: they already are probabilities). */
  readonly softmax: boolean;
  readonly topK: number;
  /** `map`: `{label: probability}` (TorchServe); `list`: `[{label, probability}]`. */
  readonly responseFormat: 'map' | 'list';
}

const KNOWN = ['input', 'output', 'layout', 'size', 'resize', 'cropFraction', 'scale', 'mean', 'std', 'maxPixels', 'softmax', 'topK', 'responseFormat'];

/** ImageNet's channel statistics (RGB), what most torchvision models are trained with. */
const IMAGENET_MEAN = [0.485, 0.456, 0.406];
const IMAGENET_STD = [0.229, 0.224, 0.225];
/** Their averages, for single-channel models. */
const GREY_MEAN = [0.449];
const GREY_STD = [0.226];

/** The default input side when the model leaves height and width open (torchvision's classifiers). */
const DEFAULT_SIDE = 224;

/** Big enough for an 8K frame (33 megapixels); 40 M RGB pixels decode to 120 MB. */
export const DEFAULT_MAX_PIXELS = 40_000_000;

function inputSpec(options: HandlerOptions, context: HandlerContext): TensorSpec {
  const { model } = context;
  const name = options.string('input');
  if (name !== undefined) {
    const spec = model.inputs.find((s) => s.name === name);
    if (spec === undefined) throw options.invalid('input', `one of the model's inputs (${model.inputs.map((s) => s.name).join(', ')})`);
    return spec;
  }
  const [only, ...others] = model.inputs;
  if (only === undefined || others.length > 0) throw options.invalid('input', `set to the input the image goes into, as the model has ${model.inputs.length} inputs`);
  return only;
}

function requestedSize(options: HandlerOptions): readonly [number, number] | undefined {
  const rule = { min: 1, max: 16_384, integer: true };
  if (!options.has('size')) return undefined;
  if (typeof options.value('size') === 'number') {
    const side = options.number('size', DEFAULT_SIDE, rule);
    return [side, side];
  }
  const [height = DEFAULT_SIDE, width = DEFAULT_SIDE] = options.numbers('size', [], rule, [2]);
  return [height, width];
}

/** A dimension of the spec, fixed (> 0) or open (-1); checked against what the settings ask for. */
function side(options: HandlerOptions, declared: number | undefined, requested: number | undefined, what: string): number {
  if (declared !== undefined && declared > 0) {
    if (requested !== undefined && requested !== declared) throw options.invalid('size', `left out or equal to the model's fixed ${what} of ${declared}`);
    return declared;
  }
  return requested ?? DEFAULT_SIDE;
}

function imageInput(options: HandlerOptions, context: HandlerContext): ImageInput {
  const spec = inputSpec(options, context);
  const layout = options.oneOf('layout', ['NCHW', 'NHWC'] as const, 'NCHW');
  const where = `${IMAGE_CLASSIFIER}: input \`${spec.name}\` of model \`${context.model.name}\``;
  if (spec.datatype !== 'FP32' && spec.datatype !== 'UINT8') {
    throw new SluiceError('SLUICE_HANDLER_FAILED', `${where} is ${spec.datatype}; this handler fills FP32 (normalised) or UINT8 (raw pixel) inputs`, {
      handler: IMAGE_CLASSIFIER,
    });
  }
  const [batch, ...rest] = spec.shape;
  if (spec.shape.length !== 4 || (batch !== -1 && batch !== 1)) {
    throw new SluiceError(
      'SLUICE_HANDLER_FAILED',
      `${where} has shape [${spec.shape.join(', ')}]; this handler fills [N, C, H, W] or, with layout NHWC, [N, H, W, C] inputs, N variable or 1`,
      { handler: IMAGE_CLASSIFIER },
    );
  }
  const [c, h, w] = layout === 'NCHW' ? [rest[0], rest[1], rest[2]] : [rest[2], rest[0], rest[1]];
  const channels = c === undefined || c < 0 ? 3 : c;
  if (channels !== 1 && channels !== 3) {
    throw new SluiceError('SLUICE_HANDLER_FAILED', `${where} has ${channels} channels in layout ${layout}; this handler makes 3 (RGB) or 1 (grey)`, {
      handler: IMAGE_CLASSIFIER,
    });
  }
  const size = requestedSize(options);
  return {
    name: spec.name,
    datatype: spec.datatype,
    layout,
    channels,
    height: side(options, h, size?.[0], 'height'),
    width: side(options, w, size?.[1], 'width'),
  };
}

/**
 * The handler's settings for the model in `context`: its `handlerOptions` with defaults applied, and the
 * image input read from the model's input spec. Wrong settings throw `SLUICE_HANDLER_FAILED` naming the
 * key, as they need a fix in model.yaml rather than in the request.
 */
export function imageClassifierOptions(context: HandlerContext): ImageClassifierOptions {
  const options = new HandlerOptions(IMAGE_CLASSIFIER, context.model.name, context.config);
  options.onlyKnown(KNOWN);
  const input = imageInput(options, context);
  const grey = input.channels === 1;
  const positive = { min: 0, exclusiveMin: true };
  const lengths = [1, input.channels];
  const mean = options.numbers('mean', grey ? GREY_MEAN : IMAGENET_MEAN, {}, lengths);
  const std = options.numbers('std', grey ? GREY_STD : IMAGENET_STD, positive, lengths);
  const output = options.string('output');
  if (output !== undefined && !context.model.outputs.some((s) => s.name === output)) {
    throw options.invalid('output', `one of the model's outputs (${context.model.outputs.map((s) => s.name).join(', ')})`);
  }
  return {
    input,
    resize: options.oneOf('resize', ['center-crop', 'fill'] as const, 'center-crop'),
    cropFraction: options.number('cropFraction', 0.875, { ...positive, max: 1 }),
    scale: options.number('scale', 1 / 255, positive),
    mean: Array.from({ length: input.channels }, (_, c) => mean[c] ?? mean[0] ?? 0),
    std: Array.from({ length: input.channels }, (_, c) => std[c] ?? std[0] ?? 1),
    maxPixels: options.number('maxPixels', DEFAULT_MAX_PIXELS, { min: 1, integer: true }),
    ...(output !== undefined ? { output } : {}),
    softmax: options.boolean('softmax', true),
    topK: options.number('topK', 5, { min: 1, integer: true }),
    responseFormat: options.oneOf('responseFormat', ['map', 'list'] as const, 'map'),
  };
}
