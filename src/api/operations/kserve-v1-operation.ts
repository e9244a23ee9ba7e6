import { kserveInstancesOfBody } from '../../sdk/bodies/kserve-instances.js';
import type { InferenceCore } from '../../serving/core-interfaces/inference-core.js';
import type { OperationContext } from './operation-context.js';

/** A KServe v1 `:predict` body: its bytes, and the charset its `Content-Type` names. */
export interface KServeV1Body {
  readonly bytes: Uint8Array;
  readonly charset: string | undefined;
}

/**
 * KServe v1 `:predict`, whatever the transport: `{instances}` (or `{inputs}`) in, `{predictions}` out;
 * each instance is a request of the model's handler of its own (so the instances batch together),
 * `predictions[i]` the answer to `instances[i]`, all within the request's budget.
 */
export class KServeV1Operation {
  constructor(private readonly core: InferenceCore) {}

  async predict(model: string, body: KServeV1Body, context: OperationContext): Promise<{ predictions: unknown }> {
    this.core.registry.resolve(model); // an unknown model is refused whatever the body holds
    // Read as JSON whatever its Content-Type, as the `kserve` envelope reads it, so that the two answer alike.
    const { listName, requests } = kserveInstancesOfBody(body.bytes, body.charset);
    const answer = await this.core.inference.predictEach({
      model,
      requests,
      listName,
      budget: context.budget,
      api: context.api,
      ...(context.requestId !== undefined ? { requestId: context.requestId } : {}),
      ...(context.traceContext !== undefined ? { traceContext: context.traceContext } : {}),
    });
    return { predictions: answer.result };
  }
}
