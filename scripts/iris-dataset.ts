import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../src/package-files/package-root.js';

/** The four measurement columns, in the order the model takes them. */
export const IRIS_FEATURES = ['sepal_length', 'sepal_width', 'petal_length', 'petal_width'] as const;

/** The species, in class-index order (the order of the model's outputs and of `labels.txt`). */
export const IRIS_SPECIES = ['setosa', 'versicolor', 'virginica'] as const;

/** The iris table as numbers. */
export interface IrisDataset {
  readonly rows: number;
  /** `rows × 4` measurements in centimetres, row-major, in {@link IRIS_FEATURES} order. */
  readonly features: Float64Array;
  /** One class index per row, into {@link IRIS_SPECIES}. */
  readonly classes: Uint8Array;
}

/** Where the bundled iris table lives. */
export function irisCsvPath(): string {
  return join(packageRoot(), 'scripts', 'data', 'iris.csv');
}

/** Reads and parses the iris table (the bundled one by default). */
export async function loadIrisDataset(path: string = irisCsvPath()): Promise<IrisDataset> {
  return parseIrisCsv(await readFile(path, 'utf8'));
}

/**
 * Parses CSV text with the header `sepal_length,sepal_width,petal_length,petal_width,species`.
 * Throws on a different header, a malformed number or an unknown species, naming the line.
 */
export function parseIrisCsv(text: string): IrisDataset {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const expectedHeader = [...IRIS_FEATURES, 'species'].join(',');
  if (lines[0] !== expectedHeader) throw new Error(`iris CSV header must be "${expectedHeader}"`);
  const body = lines.slice(1);
  const features = new Float64Array(body.length * IRIS_FEATURES.length);
  const classes = new Uint8Array(body.length);
  body.forEach((line, row) => {
    const cells = line.split(',');
    if (cells.length !== IRIS_FEATURES.length + 1) throw new Error(`iris CSV line ${row + 2}: expected 5 fields`);
    IRIS_FEATURES.forEach((_, column) => {
      const cell = cells[column] ?? '';
      const value = cell.trim() === '' ? Number.NaN : Number(cell);
      if (!Number.isFinite(value)) throw new Error(`iris CSV line ${row + 2}: "${cell}" is not a number`);
      features[row * IRIS_FEATURES.length + column] = value;
    });
    const species = cells[IRIS_FEATURES.length] ?? '';
    const index = (IRIS_SPECIES as readonly string[]).indexOf(species);
    if (index < 0) throw new Error(`iris CSV line ${row + 2}: unknown species ${species}`);
    classes[row] = index;
  });
  return { rows: body.length, features, classes };
}
