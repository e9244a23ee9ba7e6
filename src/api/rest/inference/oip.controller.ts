import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TensorSpec } from '../../../common/tensor/index.js';
import type { ModelVersion } from '../../../serving/model-version.js';
import { observedRequestId } from '../common/request-observer.js';
import { ServingCore } from '../../../serving/serving-core.js';
import { knobsFromOipParameters } from '../common/request-knobs.js';
import { bodyBytes } from '../common/request-body.js';
import { decodeOipBody, HEADER_LENGTH } from './oip/oip-body.js';
import type { DecodedOipRequest } from './oip/oip-request-decoder.js';
import { encodeOipResponse } from './oip/oip-response-encoder.js';
import { checkRequestedWorkflowOutputs, workflowInputsOfOipTensors, workflowOutputToOipTensor } from '../../common/workflow-oip.js';
import { calledWorkflow } from '../../common/called-workflow.js';
import { inferOip } from './oip/oip-infer.js';

/** OIP model metadata. */
interface ModelMetadata {
  readonly name: string;
  readonly versions: readonly string[];
  readonly platform: string;
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
}

function decodeBody(request: FastifyRequest): DecodedOipRequest {
  return decodeOipBody(bodyBytes(request), request.headers);
}

/** Open Inference Protocol (KServe v2) REST routes. */
@Controller('v2')
export class OipController {
  constructor(@Inject(ServingCore) private readonly core: ServingCore) {}

  /** Server metadata. */
  @Get()
  serverMetadata(): { name: string; version: string; extensions: string[] } {
    return { name: 'sluice', version: this.core.serverVersion, extensions: ['binary_tensor_data'] };
  }

  /** Liveness: 200 while the process serves HTTP. */
  @Get('health/live')
  live(): { live: boolean } {
    return { live: true };
  }

  /** Readiness: 200 when every registered model version is ready, else 503. */
  @Get('health/ready')
  ready(@Res({ passthrough: true }) reply: FastifyReply): { ready: boolean } {
    const ready = this.core.isReady();
    void reply.status(ready ? 200 : 503);
    return { ready };
  }

  /** Metadata of the default version. */
  @Get('models/:model')
  modelMetadata(@Param('model') model: string): ModelMetadata {
    return this.metadata(this.core.registry.resolve(model));
  }

  /** Metadata of a version. */
  @Get('models/:model/versions/:version')
  versionMetadata(@Param('model') model: string, @Param('version') version: string): ModelMetadata {
    return this.metadata(this.core.registry.resolve(model, version));
  }

  /** Readiness of the default version. */
  @Get('models/:model/ready')
  modelReady(@Param('model') model: string, @Res({ passthrough: true }) reply: FastifyReply): { name: string; ready: boolean } {
    return this.readiness(this.core.registry.resolve(model), reply);
  }

  /** Readiness of a version. */
  @Get('models/:model/versions/:version/ready')
  versionReady(
    @Param('model') model: string,
    @Param('version') version: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): { name: string; ready: boolean } {
    return this.readiness(this.core.registry.resolve(model, version), reply);
  }

  /** Inference with the default version. */
  @Post('models/:model/infer')
  @HttpCode(200)
  async infer(@Param('model') model: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.run(model, undefined, request, reply);
  }

  /** Inference with a given version. */
  @Post('models/:model/versions/:version/infer')
  @HttpCode(200)
  async inferVersion(
    @Param('model') model: string,
    @Param('version') version: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.run(model, version, request, reply);
  }

  private async run(model: string, version: string | undefined, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    if (calledWorkflow(this.core, model, version, `send it to POST /v2/models/${model}/infer`) !== undefined) return this.runWorkflow(model, request, reply);
    this.core.registry.resolve(model, version); // an unknown model is a 404 whatever the body holds
    const decoded = decodeBody(request);
    const target = { model, ...(version !== undefined ? { version } : {}) };
    const encoded = await inferOip(this.core.inference, target, decoded, knobsFromOipParameters(decoded.parameters, request, reply), observedRequestId(request));
    if (encoded.kind === 'json') return encoded.body;
    void reply.header('content-type', 'application/octet-stream').header(HEADER_LENGTH, String(encoded.headerLength));
    return encoded.body;
  }

  /** `POST /v2/models/{workflow}/infer`: OIP tensors in and out of a workflow. */
  private async runWorkflow(name: string, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const workflow = this.core.workflows.get(name);
    const decoded = decodeBody(request);
    checkRequestedWorkflowOutputs(workflow.plan.workflow, decoded.outputs);
    const inputs = workflowInputsOfOipTensors(workflow.plan.workflow, decoded.inputs);
    const knobs = knobsFromOipParameters(decoded.parameters, request, reply);
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    const { result } = await this.core.workflowService.run(name, inputs, {
      signal: controller.signal,
      ...(knobs.timeoutMs !== undefined ? { timeoutMs: knobs.timeoutMs } : {}),
      ...(knobs.priority !== undefined ? { priority: knobs.priority } : {}),
      ...(knobs.traceContext !== undefined ? { traceContext: knobs.traceContext } : {}),
    });
    const wanted = decoded.outputs ?? Object.keys(result.outputs);
    const outputs = wanted.filter((n) => n in result.outputs).map((n) => workflowOutputToOipTensor(n, result.outputs[n]));
    const encoded = encodeOipResponse(
      { name, version: workflow.version, ...(decoded.id !== undefined ? { id: decoded.id } : {}) },
      outputs,
      decoded.isBinaryOutput,
    );
    if (encoded.kind === 'json') return encoded.body;
    void reply.header('content-type', 'application/octet-stream').header(HEADER_LENGTH, String(encoded.headerLength));
    return encoded.body;
  }

  private metadata(version: ModelVersion): ModelMetadata {
    return {
      name: version.name,
      versions: this.core.registry.versionsOf(version.name).map((v) => v.version),
      platform: 'onnxruntime_onnx',
      inputs: version.description.inputs,
      outputs: version.description.outputs,
    };
  }

  private readiness(version: ModelVersion, reply: FastifyReply): { name: string; ready: boolean } {
    const ready = version.isReady();
    void reply.status(ready ? 200 : 503);
    return { name: version.name, ready };
  }
}
