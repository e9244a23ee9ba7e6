import { Controller, HttpCode, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { InferenceCore } from '../../../serving/core-interfaces/inference-core.js';
import { ENVELOPE_HEADER } from '../../bodies/envelope-choice.js';
import { PredictionsOperation } from '../../operations/predictions-operation.js';
import { httpBodyOf } from '../request-body/http-body.js';
import { httpOperationContext } from '../request-context/http-operation-context.js';
import { HttpPartialStream, streamFormatOf } from '../streaming/http-partial-stream.js';
import { streamedReply } from '../streaming/streamed-reply.js';
import { PREDICTIONS_HTTP_CODEC } from './predictions-http-codec.js';

/** The envelope a request asks for: `?envelope=`, else the `x-sluice-envelope` header. */
function askedEnvelope(request: FastifyRequest): string | undefined {
  const query = (request.query as Readonly<Record<string, unknown>> | undefined)?.['envelope'];
  const header = request.headers[ENVELOPE_HEADER];
  return typeof query === 'string' ? query : typeof header === 'string' ? header : undefined;
}

/**
 * TorchServe's inference route: the model's handler interprets the body. The work is the
 * transport-neutral {@link PredictionsOperation}, within the budget made from the request's headers and
 * its client's presence.
 */
@Controller('predictions')
export class PredictionsController {
  private readonly predictions: PredictionsOperation;

  constructor(@Inject(SERVING_CORE) core: InferenceCore) {
    this.predictions = new PredictionsOperation(core);
  }

  /** Predicts with the model's default version. */
  @Post(':model')
  @HttpCode(200)
  async predict(@Param('model') model: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.run(model, undefined, request, reply);
  }

  /** Predicts with a given version. */
  @Post(':model/:version')
  @HttpCode(200)
  async predictVersion(
    @Param('model') model: string,
    @Param('version') version: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.run(model, version, request, reply);
  }

  /** {@link predict} for PUT, as `curl -T file` sends a file and TorchServe takes it. */
  @Put(':model')
  @HttpCode(200)
  async predictPut(@Param('model') model: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.run(model, undefined, request, reply);
  }

  /** {@link predictVersion} for PUT. */
  @Put(':model/:version')
  @HttpCode(200)
  async predictVersionPut(
    @Param('model') model: string,
    @Param('version') version: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.run(model, version, request, reply);
  }

  /**
   * The handler's answer as the framework writes a value, or an envelope's body with its media type; a
   * handler that sends intermediate answers (`sendPartial`) has them streamed before it, as chunks (as
   * Server-Sent Events with `Accept: text/event-stream`).
   */
  private async run(model: string, version: string | undefined, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const partials = new HttpPartialStream(streamFormatOf(request.headers));
    const context = httpOperationContext(request, reply, 'predictions', partials);
    const work = this.predictions.predict(model, version, askedEnvelope(request), httpBodyOf(request), PREDICTIONS_HTTP_CODEC, context);
    return streamedReply(
      request,
      reply,
      partials,
      work,
      (answer) => {
        if (answer.kind === 'answer') return answer.value;
        const { body, contentType } = answer.response;
        if (contentType !== undefined) void reply.type(contentType);
        return body instanceof Uint8Array ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : body;
      },
      (answer) => (answer.kind === 'answer' ? answer.value : answer.response.body),
    );
  }
}
