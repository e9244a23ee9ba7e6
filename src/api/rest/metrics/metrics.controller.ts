import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ServingCore } from '../../../serving/serving-core.js';

/** Prometheus scrape endpoint. */
@Controller()
export class MetricsController {
  constructor(@Inject(ServingCore) private readonly core: ServingCore) {}

  /** Every metric in the Prometheus text format. */
  @Get('metrics')
  @Header('cache-control', 'no-store')
  metrics(@Res({ passthrough: true }) reply: FastifyReply): string {
    const { contentType, body } = this.core.metrics.scrape();
    void reply.header('content-type', contentType);
    return body;
  }
}
