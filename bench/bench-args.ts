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
 * This process's arguments parsed as `options` ({@link readBenchArgs}). `--help` prints `command`'s usage
 * and exits; an unknown option or a missing value prints what is wrong and the usage, and exits with
 * status 2, instead of a stack trace.
 */
export function parseBenchArgs<const O extends BenchArgOptions>(command: string, options: O): BenchArgValues<O> {
  const parsed = readBenchArgs(process.argv.slice(2), options);
  if ('values' in parsed) return parsed.values;
  if ('help' in parsed) {
    process.stdout.write(benchUsage(command, options));
    process.exit(0);
  }
  process.stderr.write(`${parsed.problem}\n\n${benchUsage(command, options)}`);
  process.exit(2);
}
