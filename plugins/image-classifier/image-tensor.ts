import sharp, { type Metadata, type Sharp } from 'sharp';
import { SluiceError, type Tensor } from '../../src/sdk/index.js';
import { IMAGE_CLASSIFIER, type ImageClassifierOptions, type ImageInput } from './image-classifier-options.js';

/** Raster formats the handler decodes; vector and document formats (SVG, PDF) are refused. */
const FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'avif', 'heif']);

function invalidImage(message: string): SluiceError {
  return new SluiceError('SLUICE_REQUEST_INVALID', `${IMAGE_CLASSIFIER}: ${message}`, { handler: IMAGE_CLASSIFIER });
}

/** The header's facts, read without decoding pixels; refuses what is not a raster image or is too large. */
async function checkedMetadata(bytes: Uint8Array, maxPixels: number): Promise<Metadata> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes).metadata();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidImage(`the body is not an image (${reason}); send JPEG, PNG, WebP, GIF, TIFF or AVIF bytes`);
  }
  if (!FORMATS.has(metadata.format)) {
    throw invalidImage(`${metadata.format.toUpperCase()} images are not accepted; send JPEG, PNG, WebP, GIF, TIFF or AVIF bytes`);
  }
  const pixels = metadata.width * metadata.height;
  if (pixels > maxPixels) {
    throw invalidImage(
      `the image is ${metadata.width}×${metadata.height} = ${pixels} pixels, more than this model's limit of ${maxPixels} (handlerOptions.maxPixels); send a smaller image`,
    );
  }
  return metadata;
}

/**
 * The longest side the centre crop scales an image to before cutting. libvips refuses to scale to sides
 * of about 2^25 pixels ("output coordinates out of range"), which a sliver of an image within `maxPixels`
 * reaches (1 × 2 000 000 scaled so its width covers the input); such an image is cut first, then scaled.
 */
const MAX_SCALED_SIDE = 1 << 20;

/** Scales the image so it covers the input with `cropFraction` to spare, then cuts out the centre. */
function centreCrop(pipeline: Sharp, metadata: Metadata, input: ImageInput, cropFraction: number): Sharp {
  const { width, height } = metadata.autoOrient;
  const scale = Math.max(input.height / height, input.width / width) / cropFraction;
  const resizedWidth = Math.max(input.width, Math.round(width * scale));
  const resizedHeight = Math.max(input.height, Math.round(height * scale));
  if (Math.max(resizedWidth, resizedHeight) > MAX_SCALED_SIDE) {
    // The part of the original that the crop keeps, then scaled to the input: the same centre.
    const keptWidth = Math.min(width, Math.max(1, Math.round(input.width / scale)));
    const keptHeight = Math.min(height, Math.max(1, Math.round(input.height / scale)));
    return pipeline
      .extract({ left: Math.floor((width - keptWidth) / 2), top: Math.floor((height - keptHeight) / 2), width: keptWidth, height: keptHeight })
      .resize({ width: input.width, height: input.height, fit: 'fill' });
  }
  return pipeline.resize({ width: resizedWidth, height: resizedHeight, fit: 'fill' }).extract({
    left: Math.floor((resizedWidth - input.width) / 2),
    top: Math.floor((resizedHeight - input.height) / 2),
    width: input.width,
    height: input.height,
  });
}

/** Decodes, orients, flattens (transparency on white), converts and resizes: raw 8-bit pixels, interleaved. */
async function inputPixels(bytes: Uint8Array, options: ImageClassifierOptions): Promise<Uint8Array> {
  const { input } = options;
  const metadata = await checkedMetadata(bytes, options.maxPixels);
  let pipeline = sharp(bytes, { limitInputPixels: options.maxPixels })
    .autoOrient()
    .flatten({ background: '#ffffff' })
    .toColourspace(input.channels === 1 ? 'b-w' : 'srgb');
  pipeline =
    options.resize === 'fill'
      ? pipeline.resize({ width: input.width, height: input.height, fit: 'fill' })
      : centreCrop(pipeline, metadata, input, options.cropFraction);
  try {
    const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== input.channels || info.width !== input.width || info.height !== input.height) {
      throw new Error(`decoded to ${info.width}×${info.height}×${info.channels}, not ${input.width}×${input.height}×${input.channels}`);
    }
    return new Uint8Array(data.buffer, data.byteOffset, data.length);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidImage(`the image cannot be decoded (${reason}); send an intact JPEG, PNG, WebP, GIF, TIFF or AVIF file`);
  }
}

/** Writes interleaved pixels into the input's layout and datatype, normalising FP32 values. */
function pixelsToTensor(pixels: Uint8Array, options: ImageClassifierOptions): Tensor {
  const { input } = options;
  const { channels, height, width } = input;
  const area = height * width;
  const shape = input.layout === 'NCHW' ? [1, channels, height, width] : [1, height, width, channels];
  if (input.datatype === 'UINT8') {
    if (input.layout === 'NHWC') return { name: input.name, datatype: 'UINT8', shape, data: pixels.slice() };
    const planar = new Uint8Array(pixels.length);
    for (let i = 0; i < area; i++) for (let c = 0; c < channels; c++) planar[c * area + i] = pixels[i * channels + c] ?? 0;
    return { name: input.name, datatype: 'UINT8', shape, data: planar };
  }
  // (p * scale - mean) / std as one multiply-add per value.
  const gain = options.std.map((s) => options.scale / s);
  const offset = options.mean.map((m, c) => -m / (options.std[c] ?? 1));
  const data = new Float32Array(pixels.length);
  for (let c = 0; c < channels; c++) {
    const g = gain[c] ?? 1;
    const o = offset[c] ?? 0;
    if (input.layout === 'NCHW') {
      for (let i = 0; i < area; i++) data[c * area + i] = (pixels[i * channels + c] ?? 0) * g + o;
    } else {
      for (let i = c; i < pixels.length; i += channels) data[i] = (pixels[i] ?? 0) * g + o;
    }
  }
  return { name: input.name, datatype: 'FP32', shape, data };
}

/**
 * The model input for one image: decoded by sharp (off the event loop), oriented by EXIF, resized as
 * the options say, normalised and laid out as the model's input spec declares, with a batch of one.
 * Bytes that are not an accepted image, or an image over `maxPixels`, throw `SLUICE_REQUEST_INVALID`.
 */
export async function imageTensor(bytes: Uint8Array, options: ImageClassifierOptions): Promise<Tensor> {
  return pixelsToTensor(await inputPixels(bytes, options), options);
}
