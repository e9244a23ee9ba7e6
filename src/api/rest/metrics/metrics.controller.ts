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
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { contentType, body } = await this.core.metrics.scrape();
    void reply.header('content-type', contentType);
    return body;
  }
}
