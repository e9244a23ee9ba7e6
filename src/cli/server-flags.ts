import { parseCommandFlags } from './command-flags.js';

/** `--config FILE`, the only flag of `sluice stop` and `sluice status`: which server, by its config file. */
export function parseServerFlags(args: readonly string[]): { readonly configFile: string | undefined } {
  return { configFile: parseCommandFlags(args, { config: { type: 'string' } }).config };
}
