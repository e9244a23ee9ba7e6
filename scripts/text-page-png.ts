import sharp from 'sharp';

/** How {@link renderTextPng} lays out its lines. */
export interface TextImageOptions {
  /** Font size in pixels (default 64). */
  readonly fontSize?: number;
  /** Image width in pixels (default 900). */
  readonly width?: number;
  /** Distance between baselines, as a multiple of the font size (default 1.8). */
  readonly lineSpacing?: number;
  /** Four grey levels in a palette, which keeps a page of text to a few kilobytes (default false: full colour). */
  readonly compact?: boolean;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A PNG of `lines` in black DejaVu Sans on white, one line under the other, left-aligned, spaces kept as typed. */
export function renderTextPng(lines: readonly string[], options: TextImageOptions = {}): Promise<Buffer> {
  const fontSize = options.fontSize ?? 64;
  const width = options.width ?? 900;
  const pitch = Math.round(fontSize * (options.lineSpacing ?? 1.8));
  const height = pitch * lines.length + fontSize;
  const texts = lines.map(
    (line, i) =>
      `<text xml:space="preserve" x="${fontSize / 2}" y="${pitch * i + fontSize * 1.4}" font-family="DejaVu Sans" font-size="${fontSize}" fill="black">${escapeXml(line)}</text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${texts.join('')}</svg>`;
  const image = sharp(Buffer.from(svg));
  return options.compact === true
    ? image.greyscale().png({ palette: true, colours: 4, compressionLevel: 9, effort: 10 }).toBuffer()
    : image.png().toBuffer();
}
