import { numberOption } from './handler-options.js';
import { DEFAULT_MAX_PIXELS } from './image/rgb-image.js';
import { DEFAULT_LINE_WIDTH_OPTIONS, type LineWidthOptions } from './recognize/line-width.js';
import { DEFAULT_TEXT_BOX_OPTIONS, type TextBoxOptions } from './regions/text-boxes.js';

/** Settings of `ocr/crop-lines`: box extraction and line widths. */
export interface CropLinesOptions {
  readonly boxes: TextBoxOptions;
  readonly widths: LineWidthOptions;
  /** The largest image (width × height) decoded. */
  readonly maxPixels: number;
}

/**
 * Reads `ocr/crop-lines` settings: `threshold`, `boxThreshold`, `unclipRatio`, `minBoxSize`, `maxBoxes`
 * (see {@link TextBoxOptions}) and `minLineWidth`, `maxLineWidth`, `lineWidthStep` (see
 * {@link LineWidthOptions}) and `maxPixels`, the largest image decoded; absent ones take the defaults.
 */
export function cropLinesOptions(handler: string, config: Readonly<Record<string, unknown>>): CropLinesOptions {
  const boxDefaults = DEFAULT_TEXT_BOX_OPTIONS;
  const widthDefaults = DEFAULT_LINE_WIDTH_OPTIONS;
  const step = numberOption(handler, config, 'lineWidthStep', widthDefaults.step, { min: 1, integer: true });
  const minWidth = numberOption(handler, config, 'minLineWidth', widthDefaults.minWidth, { min: step, integer: true });
  return {
    boxes: {
      threshold: numberOption(handler, config, 'threshold', boxDefaults.threshold, { min: 0, max: 1 }),
      boxThreshold: numberOption(handler, config, 'boxThreshold', boxDefaults.boxThreshold, { min: 0, max: 1 }),
      unclipRatio: numberOption(handler, config, 'unclipRatio', boxDefaults.unclipRatio, { min: 0 }),
      minSize: numberOption(handler, config, 'minBoxSize', boxDefaults.minSize, { min: 1, integer: true }),
      maxBoxes: numberOption(handler, config, 'maxBoxes', boxDefaults.maxBoxes, { min: 1, integer: true }),
    },
    widths: {
      step,
      minWidth,
      maxWidth: numberOption(handler, config, 'maxLineWidth', Math.max(minWidth, widthDefaults.maxWidth), { min: minWidth, integer: true }),
    },
    maxPixels: numberOption(handler, config, 'maxPixels', DEFAULT_MAX_PIXELS, { min: 1, integer: true }),
  };
}
