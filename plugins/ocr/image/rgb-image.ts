import sharp, { type Sharp } from 'sharp';
import { invalidNodeInput } from '../node-input-error.js';

/** A decoded image: 8-bit RGB pixels, row-major, three bytes per pixel. */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

/** The default of the `maxPixels` setting: the largest image (width × height) decoded. */
export const DEFAULT_MAX_PIXELS = 40_000_000;

/** Refuses an image whose header declares more than `maxPixels` pixels, before any is decoded. */
async function checkSize(bytes: Uint8Array, handler: string, input: string, maxPixels: number): Promise<void> {
  let width: number;
  let height: number;
  try {
    ({ width, height } = await sharp(bytes).metadata());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidNodeInput(handler, input, `is not an image sharp can decode: ${reason}`);
  }
  if (width * height > maxPixels) {
    throw invalidNodeInput(
      handler,
      input,
      `is ${width}×${height} = ${width * height} pixels, more than the limit of ${maxPixels} (setting \`maxPixels\`); send a smaller image`,
    );
  }
}

/**
 * Decodes PNG or JPEG bytes (any format sharp reads) to RGB. The image is turned upright by its EXIF
 * orientation and transparent pixels are laid on white, so every handler that decodes the same bytes
 * sees the same pixels and box coordinates agree between them. Bytes sharp cannot decode, and an image
 * of more than `maxPixels` pixels (read from its header: a small file can declare a huge image), throw
 * `SLUICE_REQUEST_INVALID` naming the handler and input.
 */
export async function decodeRgbImage(bytes: Uint8Array, handler: string, input: string, maxPixels: number): Promise<RgbImage> {
  await checkSize(bytes, handler, input, maxPixels);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels })
      .autoOrient()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`decoded to ${info.channels} channels`);
    return { width: info.width, height: info.height, pixels: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidNodeInput(handler, input, `is not an image sharp can decode: ${reason}`);
  }
}

/** A sharp pipeline reading `image`'s pixels, for cropping and resizing it. */
export function sharpOf(image: RgbImage): Sharp {
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 3 } });
}

/** Resizes `image` to exactly `width` × `height` (the aspect ratio may change). */
export async function resizeRgbImage(image: RgbImage, width: number, height: number): Promise<RgbImage> {
  if (width === image.width && height === image.height) return image;
  const data = await sharpOf(image).resize({ width, height, fit: 'fill' }).raw().toBuffer();
  return { width, height, pixels: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}
