import sharp, { type Sharp } from 'sharp';
import { invalidNodeInput } from '../node-input-error.js';

/** A decoded image: 8-bit RGB pixels, row-major, three bytes per pixel. */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

/**
 * Decodes PNG or JPEG bytes (any format sharp reads) to RGB. The image is turned upright by its EXIF
 * orientation and transparent pixels are laid on white, so every handler that decodes the same bytes
 * sees the same pixels and box coordinates agree between them. Bytes sharp cannot decode throw
 * `SLUICE_REQUEST_INVALID` naming the handler and input.
 */
export async function decodeRgbImage(bytes: Uint8Array, handler: string, input: string): Promise<RgbImage> {
  try {
    const { data, info } = await sharp(bytes)
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
