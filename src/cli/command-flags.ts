import { parseArgs } from 'node:util';
import { UsageError } from './cli-errors.js';

/** The tokens `parseArgs` reports, as far as they are read here. */
interface FlagToken {
  readonly kind: string;
  readonly rawName?: string;
  readonly name?: string;
  readonly value?: string | undefined;
}

/** A flag given twice, or a flag whose value is empty: neither is what the user meant, so neither passes silently. */
function refuseAmbiguous(tokens: readonly FlagToken[], emptyAllowed: readonly string[]): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    const flag = token.rawName ?? `--${token.name}`;
    if (seen.has(token.name)) throw new UsageError(`${flag} is given more than once; give it once`);
    seen.add(token.name);
    if (token.value !== undefined && token.value.trim() === '' && !emptyAllowed.includes(token.name)) throw new UsageError(`${flag} needs a value; it was given an empty one`);
  }
}

/** The flags of a command: each a string or a boolean, given once at most. */
export type FlagOptions = Readonly<Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string }>>;

/** What the flags of `T` were given: a string or true for each flag given. */
export type FlagValues<T extends FlagOptions> = { readonly [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : string };

/**
 * Parses the flags of one `sluice` command strictly: an unknown flag, an argument that is no flag, a flag
 * given twice or a flag with an empty value (unless named in `emptyAllowed`) throws a `UsageError` (exit
 * status 2) naming it, its message ending with `; see sluice --help`.
 */
export function parseCommandFlags<const T extends FlagOptions>(args: readonly string[], options: T, emptyAllowed: readonly string[] = []): FlagValues<T> {
  try {
    const parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: false, tokens: true });
    refuseAmbiguous(parsed.tokens, emptyAllowed);
    return parsed.values;
  } catch (error) {
    const message = typeof (error as { message?: unknown }).message === 'string' ? (error as { message: string }).message : String(error);
    throw new UsageError(`${message}; see sluice --help`);
  }
}

/**
 * {@link parseCommandFlags} for a command that also takes operands (`sluice workflow graph NAME`): the
 * arguments that are no flag come back as `positionals`, in order.
 */
export function parseCommandArguments<const T extends FlagOptions>(
  args: readonly string[],
  options: T,
  emptyAllowed: readonly string[] = [],
): { readonly values: FlagValues<T>; readonly positionals: readonly string[] } {
  try {
    const parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true, tokens: true });
    refuseAmbiguous(parsed.tokens, emptyAllowed);
    return { values: parsed.values, positionals: parsed.positionals };
  } catch (error) {
    const message = typeof (error as { message?: unknown }).message === 'string' ? (error as { message: string }).message : String(error);
    throw new UsageError(`${message}; see sluice --help`);
  }
}
