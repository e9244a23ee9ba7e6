import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SluiceError } from '../../../sdk/errors/index.js';
import { charsetOf } from '../../../sdk/bodies/body-charset.js';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { InferenceCore } from '../../../serving/core-interfaces/inference-core.js';
import { KServeV1Operation } from '../../operations/kserve-v1-operation.js';
import { methodNotAllowed } from '../routing/allowed-methods.js';
import { httpOperationContext } from '../request-context/http-operation-context.js';
import { kserveV1Methods, predictedModel } from '../routing/kserve-v1-path.js';
import { bodyBytes } from '../request-body/request-body.js';

/**
 * The answer to a request whose `/v1/models/{segment}` path does not take its method (the router sends
 * both routes' methods to both handlers): 405 naming the methods the path takes, or 404 for a verb that
 * is not `:predict`.
 */
function notTaken(request: FastifyRequest, segment: string): SluiceError {
  const route = `${request.method} ${request.url.split('?')[0] ?? ''}`;
  const taken = kserveV1Methods(segment);
  if (taken.length === 0) return new SluiceError('SLUICE_ROUTE_NOT_FOUND', `no route ${route}; use GET /v1/models/<model> or POST /v1/models/<model>:predict`);
  return methodNotAllowed(route, taken, taken.includes('POST') ? '' : `; predict with POST /v1/models/${segment}:predict`);
}

/**
 * KServe v1 protocol: `{instances}` in, `{predictions}` out; each instance is a request of the model's
 * handler of its own (so the instances batch together), `predictions[i]` the answer to `instances[i]`.
 * Prediction is the transport-neutral {@link KServeV1Operation}.
 */
@Controller('v1/models')
export class KServeV1Controller {
  private readonly kserve: KServeV1Operation;

  constructor(@Inject(SERVING_CORE) private readonly core: InferenceCore) {
    this.kserve = new KServeV1Operation(core);
  }

  /** KServe's model list: `{models: [name, …]}`, every registered model once, sorted by name. */
  @Get()
  list(): { models: string[] } {
    return { models: this.core.registry.names() };
  }

  /** `{name, ready}` for the model's default version. */
  @Get(':model')
  status(@Param('model') segment: string, @Req() request: FastifyRequest): { name: string; ready: boolean } {
    if (segment.includes(':')) throw notTaken(request, segment);
    const version = this.core.registry.resolve(segment);
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
    const model = predictedModel(modelAndVerb);
    if (model === undefined) throw notTaken(request, modelAndVerb);
    const bytes = bodyBytes(request);
    return this.kserve.predict(model, { bytes, charset: charsetOf(request.headers['content-type']) }, httpOperationContext(request, reply, 'v1'));
  }
}
