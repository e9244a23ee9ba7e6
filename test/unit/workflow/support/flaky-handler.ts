import { WorkflowHarness } from './workflow-harness.js';

/** A harness with handler `t/flaky`, which fails its first `failures` calls with `error`, then answers. */
export function flaky(failures: number, error: () => Error): { harness: WorkflowHarness; calls: () => number } {
  let calls = 0;
  const harness = new WorkflowHarness().handler('t/flaky', {
    inputs: [],
    outputs: { out: {} },
    run: () => {
      calls += 1;
      return calls <= failures ? Promise.reject(error()) : Promise.resolve({ out: `ok after ${calls}` });
    },
  });
  return { harness, calls: () => calls };
}
