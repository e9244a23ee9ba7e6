import type { Tensor } from '../../common/tensor/index.js';
import type { ModelCall, ModelCaller } from '../../workflow/index.js';
import type { InferenceService } from '../inference-service.js';

/**
 * Model calls of workflow nodes, through the same inference service and schedulers as API requests: the
 * calls of a `forEach`, parallel branches and other clients' requests batch together. A call whose attempt
 * timed out, or whose run ended (answered, failed, past its deadline, cancelled), leaves the queue at once.
 */
export function createSchedulerModelCaller(inference: InferenceService): ModelCaller {
  return {
    async infer(call: ModelCall): Promise<Readonly<Record<string, Tensor>>> {
      const answer = await inference.inferTensors({
        model: call.model,
        ...(call.version !== undefined ? { version: call.version } : {}),
        inputs: Object.values(call.inputs),
        // The call's signal aborts when its attempt times out or its run ends: a call still queued then
        // leaves the queue at once, instead of holding a place in it until a batch forms.
        signal: call.signal,
        // The calls of a forEach are submitted in one turn of the event loop: let them share batches.
        gather: true,
        ...(call.priority !== undefined ? { priority: call.priority, clampPriority: true } : {}),
        api: 'workflow',
        ...(call.traceContext !== undefined ? { traceContext: call.traceContext } : {}),
      });
      return Object.fromEntries(answer.result.map((tensor) => [tensor.name, tensor]));
    },
  };
}
