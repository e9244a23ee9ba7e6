import { Controller, HttpCode, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { InferenceCore } from '../../../serving/core-interfaces/inference-core.js';
import { PredictionsOperation, type JsonNodeProgress, type JsonProgress, type WorkflowPredictionOptions } from '../../operations/predictions-operation.js';
import { asksForStream, HttpPartialStream, streamFormatOf } from '../streaming/http-partial-stream.js';
import { streamedReply } from '../streaming/streamed-reply.js';
import { httpBodyOf } from '../request-body/http-body.js';
import { httpOperationContext } from '../request-context/http-operation-context.js';
import { PREDICTIONS_HTTP_CODEC } from '../inference/predictions-http-codec.js';
import { debugFlag, progressLevel } from './workflow-request.js';

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
   * `{outputs, debug}` with per-node timings and the skipped nodes. A client that accepts
   * `text/event-stream` (or `application/x-ndjson`) gets each finished `forEach` call as it finishes
   * (`{node, index, count, outputs}`), then the answer; with `?progress=nodes` also each node as it settles
   * (`{node, status, outputs}`, the Server-Sent Event `node`), with `?progress=nested` the nodes inside
   * sub-workflows too, named by their path (`outer.inner`).
   */
  @Post(':name')
  @HttpCode(200)
  async run(@Param('name') name: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.runWorkflow(name, request, reply);
  }

  /** {@link run} for PUT, as `curl -T file` sends a file and TorchServe takes it. */
  @Put(':name')
  @HttpCode(200)
  async runPut(@Param('name') name: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.runWorkflow(name, request, reply);
  }

  private async runWorkflow(name: string, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const query = request.query as Record<string, string | string[] | undefined>;
    // Read when the run is set up, once the workflow and the body are known to be good.
    const options: WorkflowPredictionOptions = {
      get debug() {
        return debugFlag(query['debug']);
      },
      // Checked, streamed or not, as ?debug is: a misspelt value is a mistake either way.
      get nodeProgress() {
        progressLevel(query['progress']);
        return undefined;
      },
    };
    // A bare string would go out as text/plain; the answer is JSON whatever its shape.
    const plain = (answer: unknown): unknown => {
      if (typeof answer !== 'string') return answer;
      void reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(answer);
    };
    if (!asksForStream(request.headers)) {
      return plain(await this.predictions.runWorkflow(name, httpBodyOf(request), PREDICTIONS_HTTP_CODEC, httpOperationContext(request, reply, 'predictions'), options));
    }
    // The client asked for progress: each finished forEach call goes out as it finishes, then the answer.
    const partials = new HttpPartialStream(streamFormatOf(request.headers));
    // A client that left cancels the run through its budget; its progress then has nowhere to go.
    const progress = (step: JsonProgress): void => {
      partials.sendEvent(step, 'progress').catch(() => undefined);
    };
    const work = this.predictions.runWorkflow(name, httpBodyOf(request), PREDICTIONS_HTTP_CODEC, httpOperationContext(request, reply, 'predictions'), {
      get debug() {
        return options.debug;
      },
      progress,
      get nodeProgress() {
        if (progressLevel(query['progress']) === 'calls') return undefined;
        return (step: JsonNodeProgress): void => {
          partials.sendEvent(step, 'node').catch(() => undefined);
        };
      },
      get nestedNodes() {
        return progressLevel(query['progress']) === 'nested';
      },
    });
    return streamedReply(request, reply, partials, work, plain, (answer) => answer);
  }
}
