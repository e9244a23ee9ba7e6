import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { WorkflowAdministration } from '../../../serving/core-interfaces/workflow-administration.js';
import { traceHeaders } from '../../../telemetry/tracing/w3c-propagator.js';
import { requestTraceContext } from '../observation/request-observer.js';
import { QueryReader, type RawQuery } from '../management/query-reader.js';
import { describeWorkflow, type WorkflowView } from './workflow-describe.js';

/** TorchServe-compatible workflow management. */
@Controller('workflows')
export class WorkflowsController {
  constructor(@Inject(SERVING_CORE) private readonly core: WorkflowAdministration) {}

  /**
   * Registers a workflow from the workflow store or an allowed URL. Registering a name again replaces
   * it in one step; runs already going finish on the old version.
   */
  @Post()
  @HttpCode(200)
  async register(@Query() query: RawQuery, @Req() http: FastifyRequest): Promise<{ status: string }> {
    const q = new QueryReader(query, ['url', 'workflow_name', 'handler']);
    const entry = await this.core.workflowManager.register({
      url: q.requiredString('url'),
      name: q.string('workflow_name'),
      handler: q.string('handler'),
      // Downloads continue the registration's trace at the workflow's (and its models') host.
      traceHeaders: traceHeaders(requestTraceContext(http)),
    });
    const warnings = entry.warnings.length > 0 ? ` with ${entry.warnings.length} warning(s); GET /workflows/${entry.name} lists them` : '';
    return { status: `Workflow "${entry.name}" version ${entry.version} registered${warnings}` };
  }

  /** Lists registered workflows, a page at a time as `GET /models` does (`limit`, `next_page_token`). */
  @Get()
  list(@Query() query: RawQuery): { workflows: { workflowName: string; workflowUrl: string; workflowVersion: string }[]; nextPageToken?: string } {
    const q = new QueryReader(query, ['limit', 'next_page_token'], { emptyIsAbsent: true });
    const limit = q.integer('limit', 1, 1000) ?? 100;
    const start = q.integer('next_page_token', 0) ?? 0;
    const all = this.core.workflows.all();
    return {
      workflows: all.slice(start, start + limit).map((w) => ({ workflowName: w.name, workflowUrl: w.url, workflowVersion: w.version })),
      ...(start + limit < all.length ? { nextPageToken: String(start + limit) } : {}),
    };
  }

  /** Describes a workflow: nodes, models, versions, readiness, warnings. */
  @Get(':name')
  describe(@Param('name') name: string): WorkflowView[] {
    return [describeWorkflow(this.core.workflows.get(name), this.core.registry, this.core.workflows, this.core.config.responseTimeoutMs)];
  }

  /** Unregisters a workflow. */
  @Delete(':name')
  async unregister(@Param('name') name: string): Promise<{ status: string }> {
    await this.core.workflowManager.unregister(name);
    return { status: `Workflow "${name}" unregistered` };
  }
}
