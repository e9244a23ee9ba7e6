import { Controller, Get, Header, Inject, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { MetricsSource } from '../../../serving/core-interfaces/metrics-source.js';

/** The metric names of TorchServe's `name[]` query parameter (given once or repeated); undefined without it. */
function requestedNames(value: unknown): ReadonlySet<string> | undefined {
  if (value === undefined) return undefined;
  return new Set([value].flat().filter((name): name is string => typeof name === 'string'));
}

/** Prometheus scrape endpoint. */
@Controller()
export class MetricsController {
  constructor(@Inject(SERVING_CORE) private readonly core: MetricsSource) {}

  /** Every metric in the Prometheus text format, or those `name[]` names. */
  @Get('metrics')
  @Header('cache-control', 'no-store')
  async metrics(@Query('name[]') names: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { contentType, body } = await this.core.metrics.scrape(requestedNames(names));
    void reply.header('content-type', contentType);
    return body;
  }
}
