import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TensorSpec } from '../../../sdk/tensor/index.js';
import type { ModelVersion } from '../../../serving/model-version.js';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { InferenceCore } from '../../../serving/core-interfaces/inference-core.js';
import type { ServerStatus } from '../../../serving/core-interfaces/server-status.js';
import { OipInferOperation } from '../../operations/oip-infer-operation.js';
import { httpBodyOf } from '../request-body/http-body.js';
import { httpOperationContext } from '../request-context/http-operation-context.js';
import { HEADER_LENGTH } from './oip/oip-body.js';
import { OIP_HTTP_CODEC } from './oip/oip-http-codec.js';

/** OIP model metadata. */
interface ModelMetadata {
  readonly name: string;
  readonly versions: readonly string[];
  readonly platform: string;
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
}

/**
 * Open Inference Protocol (KServe v2) REST routes. Inference is the transport-neutral
 * {@link OipInferOperation}: the body and headers in, the encoded answer out, within the budget made from
 * the request's headers and its client's presence.
 */
@Controller('v2')
export class OipController {
  private readonly oip: OipInferOperation;

  constructor(@Inject(SERVING_CORE) private readonly core: InferenceCore & ServerStatus) {
    this.oip = new OipInferOperation(core);
  }

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

  /** Infers with a model version, or a workflow by name (`POST /v2/models/{workflow}/infer`). */
  private async run(model: string, version: string | undefined, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const encoded = await this.oip.infer(model, version, httpBodyOf(request), OIP_HTTP_CODEC, httpOperationContext(request, reply, 'v2'));
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
