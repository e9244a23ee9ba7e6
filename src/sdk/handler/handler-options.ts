import { SluiceError } from '../errors/index.js';

/** Bounds a numeric setting must respect. */
export interface NumberRule {
  readonly min?: number;
  /** The value must be greater than `min`, not equal to it. */
  readonly exclusiveMin?: boolean;
  readonly max?: number;
  readonly integer?: boolean;
}

function describeBounds(rule: NumberRule): string {
  const parts: string[] = [];
  if (rule.min !== undefined) parts.push(`${rule.exclusiveMin === true ? '>' : '≥'} ${rule.min}`);
  if (rule.max !== undefined) parts.push(`≤ ${rule.max}`);
  return parts.join(' and ');
}

function describeRule(rule: NumberRule): string {
  const bounds = describeBounds(rule);
  return `${rule.integer === true ? 'an integer' : 'a number'}${bounds === '' ? '' : ' ' + bounds}`;
}

function fits(value: unknown, rule: NumberRule): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (rule.integer === true && !Number.isInteger(value)) return false;
  if (rule.min !== undefined && (rule.exclusiveMin === true ? value <= rule.min : value < rule.min)) return false;
  return rule.max === undefined || value <= rule.max;
}

/**
 * Reads a handler's settings (a model's `handlerOptions`) with defaults. A setting of the wrong type or
 * out of bounds, or an unknown one, throws `SLUICE_HANDLER_FAILED` naming the handler, the model and
 * the key: the model's manifest needs fixing, not the request.
 */
export class HandlerOptions {
  constructor(
    private readonly handler: string,
    private readonly model: string,
    private readonly config: Readonly<Record<string, unknown>>,
  ) {}

  /** An error about `handlerOptions.<key>`; `wanted` says what the key must be. */
  invalid(key: string, wanted: string): SluiceError {
    const got = this.config[key];
    const shown = got === undefined ? '' : `, not ${JSON.stringify(got)}`;
    return new SluiceError(
      'SLUICE_HANDLER_FAILED',
      `${this.handler}: handlerOptions.${key} of model \`${this.model}\` must be ${wanted}${shown}; fix the model's model.yaml`,
      { handler: this.handler, key },
    );
  }

  /** Refuses keys outside `known`, so a misspelt setting is not silently ignored. */
  onlyKnown(known: readonly string[]): void {
    const unknown = Object.keys(this.config).find((key) => !known.includes(key));
    if (unknown !== undefined) {
      throw new SluiceError(
        'SLUICE_HANDLER_FAILED',
        `${this.handler}: handlerOptions.${unknown} of model \`${this.model}\` is not a setting of this handler (known: ${known.join(', ')}); fix the model's model.yaml`,
        { handler: this.handler, key: unknown },
      );
    }
  }

  /** Whether the setting is given. */
  has(key: string): boolean {
    return this.config[key] !== undefined;
  }

  /** The setting as written, for settings that take several forms. */
  value(key: string): unknown {
    return this.config[key];
  }

  /** A number within `rule`, or `fallback` when absent. */
  number(key: string, fallback: number, rule: NumberRule = {}): number {
    const value = this.config[key];
    if (value === undefined) return fallback;
    if (fits(value, rule)) return value;
    throw this.invalid(key, describeRule(rule));
  }

  /** A list of numbers, each within `rule`; with `lengths`, its length must be one of them. */
  numbers(key: string, fallback: readonly number[], rule: NumberRule = {}, lengths?: readonly number[]): readonly number[] {
    const value = this.config[key];
    if (value === undefined) return fallback;
    const lengthOk = Array.isArray(value) && (lengths === undefined || lengths.includes(value.length)) && value.length > 0;
    if (lengthOk && value.every((v) => fits(v, rule))) return value;
    const count = lengths === undefined ? 'a non-empty list of' : `a list of ${lengths.join(' or ')}`;
    const bounds = describeBounds(rule);
    throw this.invalid(key, `${count} ${rule.integer === true ? 'integers' : 'numbers'}${bounds === '' ? '' : `, each ${bounds}`}`);
  }

  /** A boolean, or `fallback` when absent. */
  boolean(key: string, fallback: boolean): boolean {
    const value = this.config[key];
    if (value === undefined) return fallback;
    if (typeof value === 'boolean') return value;
    throw this.invalid(key, 'true or false');
  }

  /** One of the `allowed` strings, or `fallback` when absent. */
  oneOf<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const value = this.config[key];
    if (value === undefined) return fallback;
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    throw this.invalid(key, `one of ${allowed.join(', ')}`);
  }

  /** A non-empty string, or `undefined` when absent. */
  string(key: string): string | undefined {
    const value = this.config[key];
    if (value === undefined) return undefined;
    if (typeof value === 'string' && value !== '') return value;
    throw this.invalid(key, 'a non-empty string');
  }
}
