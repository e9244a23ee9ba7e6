import { SluiceError, type ErrorCode } from '../../../sdk/errors/index.js';

/** Raw query parameters as Fastify parses them (repeated keys become lists). */
export type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

/** The codes a refused query parameter may carry: the management API's, or a plain invalid request's (plugin endpoints on the inference port). */
export type QueryErrorCode = Extract<ErrorCode, 'SLUICE_MANAGEMENT_INVALID_ARGUMENT' | 'SLUICE_REQUEST_INVALID'>;

/** How a {@link QueryReader} reads what it is given. */
export interface QueryReaderOptions {
  /**
   * An empty value (`limit=&next_page_token=`, as TorchServe's clients send) counts as not given, except
   * where {@link QueryReader.integerList} reads it as an empty list. Default false: empty is a value.
   */
  readonly emptyIsAbsent?: boolean;
}

/**
 * Strict, typed reading of management query parameters: unknown names are refused (typos must not pass
 * silently), a parameter given more than once too, integers, decimals and booleans must be exactly that,
 * and every error names the parameter.
 */
export class QueryReader {
  private readonly code: QueryErrorCode;
  private readonly options: QueryReaderOptions;

  /** `how`: the code of a refusal (default `SLUICE_MANAGEMENT_INVALID_ARGUMENT`), or how to read the query. */
  constructor(
    private readonly query: RawQuery,
    allowed: readonly string[],
    how: QueryErrorCode | QueryReaderOptions = 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
  ) {
    this.code = typeof how === 'string' ? how : 'SLUICE_MANAGEMENT_INVALID_ARGUMENT';
    this.options = typeof how === 'string' ? {} : how;
    const unknown = Object.keys(query).filter((key) => !allowed.includes(key));
    if (unknown.length > 0) {
      throw this.bad(`unknown query parameter ${unknown.map((k) => `\`${k}\``).join(', ')}; allowed here: ${allowed.length > 0 ? allowed.join(', ') : 'none'}`);
    }
  }

  private bad(message: string): SluiceError {
    return new SluiceError(this.code, message);
  }

  /** Refuses any query parameter, for a route that takes none: a misplaced one must not pass silently. */
  static refuseAll(query: RawQuery): void {
    new QueryReader(query, []);
  }

  /** A string parameter. */
  string(name: string): string | undefined {
    const value = this.raw(name);
    return value === '' && this.options.emptyIsAbsent === true ? undefined : value;
  }

  /** Whether `name` was given, even empty. */
  has(name: string): boolean {
    return this.query[name] !== undefined;
  }

  /** A required string parameter. */
  requiredString(name: string): string {
    const value = this.string(name);
    if (value === undefined || value === '') throw this.bad(`query parameter \`${name}\` is required`);
    return value;
  }

  /** An integer parameter within [min, max]. */
  integer(name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw this.bad(`query parameter \`${name}\` must be an integer between ${min} and ${max}, got ${JSON.stringify(value)}`);
    }
    return Number(value);
  }

  /** A plain decimal number within [min, max]: digits with an optional fraction (`0.25`), no sign or exponent. */
  decimal(name: string, min: number, max: number): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!/^\d+(\.\d+)?$/.test(value) || Number(value) < min || Number(value) > max) {
      throw this.bad(`query parameter \`${name}\` must be a number between ${min} and ${max} (fractions allowed, such as 0.5), got ${JSON.stringify(value)}`);
    }
    return Number(value);
  }

  /** A comma-separated list of integers, each within [min, max]. */
  integerList(name: string, min: number, max = Number.MAX_SAFE_INTEGER): number[] | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const parts = value === '' ? [] : value.split(',').map((part) => part.trim());
    if (!parts.every((part) => /^\d+$/.test(part) && Number(part) >= min && Number(part) <= max)) {
      throw this.bad(`query parameter \`${name}\` must be integers between ${min} and ${max} separated by commas, got ${JSON.stringify(value)}`);
    }
    return parts.map(Number);
  }

  /** One of a fixed set of words. */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw this.bad(`query parameter \`${name}\` must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
    }
    return value as T;
  }

  /** A boolean parameter (`true` / `false`). */
  boolean(name: string): boolean | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') throw this.bad(`query parameter \`${name}\` must be true or false, got ${JSON.stringify(value)}`);
    return value === 'true';
  }

  private raw(name: string): string | undefined {
    const value = this.query[name];
    if (Array.isArray(value)) throw this.bad(`query parameter \`${name}\` is given more than once`);
    return value;
  }
}
