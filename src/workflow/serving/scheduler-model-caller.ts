import { RequestBudget, signalCancellation } from '../../budget/request-budget.js';
import type { Tensor } from '../../sdk/tensor/index.js';
import type { ModelCall, ModelCaller } from '../index.js';
import type { InferenceService } from '../../serving/inference-service.js';

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
        // The call's budget is its run's: the run's priority, and a cancellation that is the call's signal,
        // aborted when its attempt times out or its run ends (its deadline passed, its client left): a call
        // still queued then leaves the queue at once, instead of holding a place in it until a batch forms.
        // The run keeps the time limits itself, so that a late call is named by the node that made it.
        budget: RequestBudget.of({ priority: call.priority, cancellation: signalCancellation(call.signal) }),
        clampPriority: true,
        // The calls of a forEach are submitted in one turn of the event loop: let them share batches.
        gather: true,
        api: 'workflow',
        ...(call.traceContext !== undefined ? { traceContext: call.traceContext } : {}),
      });
      return Object.fromEntries(answer.result.map((tensor) => [tensor.name, tensor]));
    },
  };
}
