import type { Tensor } from '../../common/tensor/index.js';
import type { ModelCall, ModelCaller } from '../../workflow/index.js';
import type { InferenceService } from '../inference-service.js';

/**
 * Model calls of workflow nodes, through the same inference service and schedulers as API requests: the
 * calls of a `forEach`, parallel branches and other clients' requests batch together.
 */
export function createSchedulerModelCaller(inference: InferenceService): ModelCaller {
  return {
    async infer(call: ModelCall): Promise<Readonly<Record<string, Tensor>>> {
      const answer = await inference.inferTensors({
        model: call.model,
        ...(call.version !== undefined ? { version: call.version } : {}),
        inputs: Object.values(call.inputs),
        isCancelled: () => call.signal.aborted,
        // The calls of a forEach are submitted in one turn of the event loop: let them share batches.
        gather: true,
        api: 'workflow',
        ...(call.traceContext !== undefined ? { traceContext: call.traceContext } : {}),
      });
      return Object.fromEntries(answer.result.map((tensor) => [tensor.name, tensor]));
    },
  };
}
