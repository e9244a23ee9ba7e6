import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { ServerStatus } from '../../../serving/core-interfaces/server-status.js';

/** TorchServe's health check. */
@Controller()
export class PingController {
  constructor(@Inject(SERVING_CORE) private readonly core: ServerStatus) {}

  /** 200 `Healthy` when every model has at least its minimum of workers, else 500 `Unhealthy`. */
  @Get('ping')
  ping(@Res({ passthrough: true }) reply: FastifyReply): { status: string } {
    const healthy = this.core.isHealthy();
    void reply.status(healthy ? 200 : 500);
    return { status: healthy ? 'Healthy' : 'Unhealthy' };
  }
}
