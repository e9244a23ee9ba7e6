import { Controller, Get, Header, Inject, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ServingCore } from '../../../serving/serving-core.js';

/** The metric names of TorchServe's `name[]` query parameter (given once or repeated); undefined without it. */
function requestedNames(value: unknown): ReadonlySet<string> | undefined {
  if (value === undefined) return undefined;
  return new Set([value].flat().filter((name): name is string => typeof name === 'string'));
}

/** Prometheus scrape endpoint. */
@Controller()
export class MetricsController {
  constructor(@Inject(ServingCore) private readonly core: ServingCore) {}

  /** Every metric in the Prometheus text format, or those `name[]` names. */
  @Get('metrics')
  @Header('cache-control', 'no-store')
  async metrics(@Query('name[]') names: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { contentType, body } = await this.core.metrics.scrape(requestedNames(names));
    void reply.header('content-type', contentType);
    return body;
  }
}
