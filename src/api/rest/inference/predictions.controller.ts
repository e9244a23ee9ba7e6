import { Controller, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { observedRequestId } from '../common/request-observer.js';
import { ServingCore } from '../../../serving/serving-core.js';
import { knobsFromHeaders } from '../common/request-knobs.js';
import { bodyBytes, mediaTypeOf } from '../common/request-body.js';
import { chooseEnvelope, ENVELOPE_HEADER } from '../../common/envelope-choice.js';
import { charsetOf } from '../../../plugins/sdk/body-charset.js';
import { handlerRequestOf } from './handler-request.js';

/** The envelope a request asks for: `?envelope=`, else the `x-sluice-envelope` header. */
function askedEnvelope(request: FastifyRequest): string | undefined {
  const query = (request.query as Readonly<Record<string, unknown>> | undefined)?.['envelope'];
  const header = request.headers[ENVELOPE_HEADER];
  return typeof query === 'string' ? query : typeof header === 'string' ? header : undefined;
}

/** TorchServe's inference route: the model's handler interprets the body. */
@Controller('predictions')
export class PredictionsController {
  constructor(@Inject(ServingCore) private readonly core: ServingCore) {}

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

  private async run(model: string, version: string | undefined, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const resolved = this.core.registry.resolve(model, version); // an unknown model is a 404 whatever the body holds
    const envelope = chooseEnvelope(askedEnvelope(request), resolved.manifest.envelope, this.core.envelopes);
    const target = { model, ...(version !== undefined ? { version } : {}), ...knobsFromHeaders(request, reply), api: 'predictions', requestId: observedRequestId(request) };
    if (envelope === undefined) return (await this.core.inference.predict({ ...target, request: handlerRequestOf(request) })).result;
    const body = bodyBytes(request);
    const charset = charsetOf(request.headers['content-type']);
    const answer = await this.core.inference.predictEnveloped({
      ...target,
      envelope,
      body: { body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), contentType: mediaTypeOf(request), ...(charset !== undefined ? { charset } : {}) },
    });
    const { body: responseBody, contentType } = answer.result;
    if (contentType !== undefined) void reply.type(contentType);
    return responseBody instanceof Uint8Array ? Buffer.from(responseBody.buffer, responseBody.byteOffset, responseBody.byteLength) : responseBody;
  }
}
