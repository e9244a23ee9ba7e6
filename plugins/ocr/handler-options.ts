import { SluiceError } from '../../src/sdk/index.js';

/** Bounds a numeric handler setting must respect. */
export interface NumberOptionRule {
  readonly min: number;
  readonly max?: number;
  readonly integer?: boolean;
  /** The value must be a whole multiple of this. */
  readonly multipleOf?: number;
}

/**
 * The number setting `key` of a handler's configuration, or `fallback` when it is absent. A value of the
 * wrong type or outside `rule` throws `SLUICE_CONFIG_INVALID` naming the handler and the key.
 */
export function numberOption(
  handler: string,
  config: Readonly<Record<string, unknown>>,
  key: string,
  fallback: number,
  rule: NumberOptionRule,
): number {
  const value = config[key];
  if (value === undefined) return fallback;
  const fits =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= rule.min &&
    (rule.max === undefined || value <= rule.max) &&
    (rule.integer !== true || Number.isInteger(value)) &&
    (rule.multipleOf === undefined || value % rule.multipleOf === 0);
  if (fits) return value;
  const wanted = [
    rule.integer === true ? 'an integer' : 'a number',
    `≥ ${rule.min}`,
    rule.max === undefined ? '' : `and ≤ ${rule.max}`,
    rule.multipleOf === undefined ? '' : `and a multiple of ${rule.multipleOf}`,
  ]
    .filter((part) => part !== '')
    .join(' ');
  throw new SluiceError('SLUICE_CONFIG_INVALID', `${handler}: setting \`${key}\` must be ${wanted}, not ${JSON.stringify(value)}`, {
    handler,
    key,
  });
}

/** The string setting `key` of a handler's configuration, or `undefined` when it is absent. */
export function stringOption(handler: string, config: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = config[key];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '') return value;
  throw new SluiceError('SLUICE_CONFIG_INVALID', `${handler}: setting \`${key}\` must be a non-empty string`, { handler, key });
}
