import { SluiceError, isSluiceError } from '../common/errors/index.js';
import type { InferenceJob } from '../batching/scheduler.js';
import type { LoadedModel } from '../runtime/model-runtime.js';
import type { Executor, JobResult } from './executor.js';

function asSluiceError(error: unknown): SluiceError {
  if (isSluiceError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new SluiceError('SLUICE_INFERENCE_FAILED', `inference failed: ${reason}`, {}, { cause: error });
}

/** The default executor: runs each job of a batch as its own session run on the CPU provider. */
export class CpuExecutor implements Executor {
  readonly name = 'cpu';

  async execute(model: LoadedModel, jobs: readonly InferenceJob[]): Promise<readonly JobResult[]> {
    return Promise.all(
      jobs.map(async (job): Promise<JobResult> => {
        try {
          return { ok: true, outputs: await model.run(job.inputs, job.outputNames) };
        } catch (error) {
          return { ok: false, error: asSluiceError(error) };
        }
      }),
    );
  }
}
