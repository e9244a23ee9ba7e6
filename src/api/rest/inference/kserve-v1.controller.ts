import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SluiceError } from '../../../common/errors/index.js';
import { observedRequestId } from '../common/request-observer.js';
import { ServingCore } from '../../../serving/serving-core.js';
import { knobsFromHeaders } from '../common/request-knobs.js';
import { kserveV1Instances } from '../../common/kserve-v1-body.js';
import { handlerRequestOf } from './handler-request.js';

/**
 * KServe v1 protocol: `{instances}` in, `{predictions}` out; each instance is a request of the model's
 * handler of its own (so the instances batch together), `predictions[i]` the answer to `instances[i]`.
 */
@Controller('v1/models')
export class KServeV1Controller {
  constructor(@Inject(ServingCore) private readonly core: ServingCore) {}

  /** `{name, ready}` for the model's default version. */
  @Get(':model')
  status(@Param('model') model: string): { name: string; ready: boolean } {
    const version = this.core.registry.resolve(model);
    return { name: version.name, ready: version.isReady() };
  }

  /** `POST /v1/models/{m}:predict`; the verb rides in the same path segment as the name. */
  @Post(':modelAndVerb')
  @HttpCode(200)
  async predict(
    @Param('modelAndVerb') modelAndVerb: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ predictions: unknown }> {
    const separator = modelAndVerb.lastIndexOf(':');
    const model = modelAndVerb.slice(0, separator);
    const verb = modelAndVerb.slice(separator + 1);
    if (separator <= 0 || verb !== 'predict') {
      throw new SluiceError('SLUICE_ROUTE_NOT_FOUND', `no route POST /v1/models/${modelAndVerb}; use POST /v1/models/<model>:predict`);
    }
    this.core.registry.resolve(model); // an unknown model is a 404 whatever the body holds
    const { listName, requests } = kserveV1Instances(handlerRequestOf(request).body);
    const answer = await this.core.inference.predictEach({ model, requests, listName, ...knobsFromHeaders(request, reply), api: 'v1', requestId: observedRequestId(request) });
    return { predictions: answer.result };
  }
}
