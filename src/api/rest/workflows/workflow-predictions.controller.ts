import { Controller, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { InferenceCore } from '../../../serving/core-interfaces/inference-core.js';
import { PredictionsOperation, type WorkflowPredictionOptions } from '../../operations/predictions-operation.js';
import { httpBodyOf } from '../request-body/http-body.js';
import { httpOperationContext } from '../request-context/http-operation-context.js';
import { PREDICTIONS_HTTP_CODEC } from '../inference/predictions-http-codec.js';
import { debugFlag } from './workflow-request.js';

/** TorchServe's workflow inference route, over the transport-neutral {@link PredictionsOperation}. */
@Controller('wfpredict')
export class WorkflowPredictionsController {
  private readonly predictions: PredictionsOperation;

  constructor(@Inject(SERVING_CORE) core: InferenceCore) {
    this.predictions = new PredictionsOperation(core);
  }

  /**
   * Runs a workflow, within the budget made from the request's headers and its client's presence (the
   * run is cancelled when the client goes away). A workflow with one output answers that output's value
   * (TorchServe's single leaf), several answer an object keyed by output. `?debug=true` answers
   * `{outputs, debug}` with per-node timings and the skipped nodes.
   */
  @Post(':name')
  @HttpCode(200)
  async run(@Param('name') name: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    const query = request.query as Record<string, string | string[] | undefined>;
    // Read when the run is set up, once the workflow and the body are known to be good.
    const options: WorkflowPredictionOptions = {
      get debug() {
        return debugFlag(query['debug']);
      },
    };
    const answer = await this.predictions.runWorkflow(name, httpBodyOf(request), PREDICTIONS_HTTP_CODEC, httpOperationContext(request, reply, 'predictions'), options);
    // A bare string would go out as text/plain; the answer is JSON whatever its shape.
    if (typeof answer === 'string') {
      void reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(answer);
    }
    return answer;
  }
}
