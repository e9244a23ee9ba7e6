import { describe } from '@jest/globals';

/**
 * `describe(name, body)` when `unavailable` is undefined; otherwise the block skipped, with a warning on
 * standard error naming the suite and why it cannot run here, so a skip is never silent. For suites that
 * need something a machine may lack (a container runtime, the privilege to mount).
 */
export function describeWherePossible(name: string, unavailable: string | undefined, body: () => void): void {
  if (unavailable === undefined) {
    describe(name, body);
    return;
  }
  process.stderr.write(`\n*** SKIPPED: ${name}: ${unavailable} ***\n\n`);
  describe.skip(name, body);
}
