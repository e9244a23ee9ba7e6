import { setFlagsFromString } from 'node:v8';

/** The V8 flag this module turns off, as `node` spells it on a command line. */
export const PRETENURING_FLAG = 'allocation-site-pretenuring';

/**
 * Turns off V8's allocation-site pretenuring for this process, unless the process was started with
 * `--allocation-site-pretenuring` or `--no-allocation-site-pretenuring` itself (the caller's choice
 * wins). Pretenuring allocates objects from a code site directly in the old generation once most of
 * them were found alive by a young collection. A server's per-request objects are alive in bursts (a
 * batch of requests answered together), so V8 pretenured them although each lives about a millisecond:
 * they then had to be marked and compacted by full collections. Returns whether it turned it off.
 */
export function turnOffPretenuring(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => arg.replace(/_/g, '-').endsWith(PRETENURING_FLAG))) return false;
  setFlagsFromString(`--no-${PRETENURING_FLAG}`);
  return true;
}
