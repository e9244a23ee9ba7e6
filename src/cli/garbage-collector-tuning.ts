import { setFlagsFromString } from 'node:v8';

/** The V8 flag a serving process sets for itself (see {@link tuneGarbageCollector}). */
export const NO_PRETENURING_FLAG = '--no-allocation-site-pretenuring';

/** A `node` flag that names allocation-site pretenuring, either way. */
const PRETENURING_FLAG = /^--(no-)?allocation[-_]site[-_]pretenuring$/;

/**
 * Turns V8's allocation-site pretenuring off in the process that serves, unless `node` was started with
 * a flag that names it (`node --allocation-site-pretenuring` keeps V8's default). V8 moves an allocation
 * site to the old generation once most of its objects outlive a young collection, which a request's
 * objects can do for a moment (when a load begins, say); the decision stays, so a serving process then
 * made every later request's objects of those sites in the old generation, where they died and waited
 * for full collections. Off, the demo MLP under load at 16 connections grew its old generation by 0.5
 * instead of 2.6 MB/s and cost 1 to 14 % less main-thread CPU per request, depending on the run (see
 * docs/performance.md). Answers the flag it set, or undefined.
 */
export function tuneGarbageCollector(execArgv: readonly string[] = process.execArgv, setFlags: (flags: string) => void = setFlagsFromString): string | undefined {
  if (execArgv.some((flag) => PRETENURING_FLAG.test(flag))) return undefined;
  setFlags(NO_PRETENURING_FLAG);
  return NO_PRETENURING_FLAG;
}
