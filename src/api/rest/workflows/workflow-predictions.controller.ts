import { Controller, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServingCore } from '../../../serving/serving-core.js';
import { workflowAnswerOf } from '../../common/workflow-body.js';
import { workflowValueToJson } from '../../common/workflow-json.js';
import { workflowInputsOf, workflowRunOptions } from './workflow-request.js';

/** TorchServe's workflow inference route. */
@Controller('wfpredict')
export class WorkflowPredictionsController {
  constructor(@Inject(ServingCore) private readonly core: ServingCore) {}

  /**
   * Runs a workflow. A workflow with one output answers that output's value (TorchServe's single leaf),
   * several answer an object keyed by output. `?debug=true` answers `{outputs, debug}` with per-node
   * timings and the skipped nodes.
   */
  @Post(':name')
  @HttpCode(200)
  async run(@Param('name') name: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    const workflow = this.core.workflows.get(name);
    const inputs = workflowInputsOf(request, workflow.plan.workflow);
    const options = workflowRunOptions(request, reply);
    const { result } = await this.core.workflowService.run(name, inputs, options);
    const outputs = workflowValueToJson(result.outputs) as Record<string, unknown>;
    if (options.debug === true) return { outputs, debug: result.debug };
    const answer = workflowAnswerOf(outputs, workflow.plan.workflow);
    // A bare string would go out as text/plain; the answer is JSON whatever its shape.
    if (typeof answer === 'string') {
      void reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(answer);
    }
    return answer;
  }
}
