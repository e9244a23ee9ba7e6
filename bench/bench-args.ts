import process from 'node:process';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The options of a benchmark script, as `node:util`'s `parseArgs` takes them. */
type BenchArgOptions = NonNullable<ParseArgsConfig['options']>;

/** What `options` parse `args` into. */
type BenchArgValues<O extends BenchArgOptions> = ReturnType<typeof parseArgs<{ options: O }>>['values'];

/** What {@link readBenchArgs} found: the values, a request for the usage, or what is wrong with the arguments. */
export type BenchArgs<O extends BenchArgOptions> = { readonly values: BenchArgValues<O> } | { readonly help: true } | { readonly problem: string };

/** `command`'s usage: how to run it, then each option with its default. */
export function benchUsage(command: string, options: BenchArgOptions): string {
  const lines = Object.entries(options).map(([name, option]) => {
    const flag = option.type === 'string' ? `--${name} VALUE` : `--${name}`;
    const fallback = option.default === undefined ? '' : `(default: ${String(option.default)})`;
    return `  ${flag.padEnd(28)} ${fallback}`.trimEnd();
  });
  return `usage: ${command} [options]\n\noptions:\n${lines.join('\n')}\n  --help                       this text\n`;
}

/** Parses `args` as `options`; `--help` or `-h` anywhere asks for the usage. */
export function readBenchArgs<const O extends BenchArgOptions>(args: readonly string[], options: O): BenchArgs<O> {
  if (args.includes('--help') || args.includes('-h')) return { help: true };
  try {
    return { values: parseArgs({ args: [...args], options }).values };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * What `parse` makes of this process's arguments. When it asks for the usage (`'help'`), prints `usage` and
 * exits; when it throws (an unknown option, a missing or bad value), prints what is wrong and the usage,
 * and exits with status 2, instead of a stack trace.
 */
export function argsOrExit<T>(parse: (args: readonly string[]) => T | 'help', usage: string): T {
  let parsed: T | 'help';
  try {
    parsed = parse(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    process.exit(2);
  }
  if (parsed === 'help') {
    process.stdout.write(usage);
    process.exit(0);
  }
  return parsed;
}

/** This process's arguments parsed as `options` ({@link readBenchArgs}), or their usage and an exit ({@link argsOrExit}). */
export function parseBenchArgs<const O extends BenchArgOptions>(command: string, options: O): BenchArgValues<O> {
  return argsOrExit((args) => {
    const parsed = readBenchArgs(args, options);
    if ('problem' in parsed) throw new Error(parsed.problem);
    return 'help' in parsed ? 'help' : parsed.values;
  }, benchUsage(command, options));
}
