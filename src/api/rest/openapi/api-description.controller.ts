import { Controller, Get, Inject, Options, type Provider } from '@nestjs/common';
import type { GuardedApi } from '../../../sdk/auth/auth.js';
import type { ServingCore } from '../../../serving/serving-core.js';
import { describeApi } from './api-description.js';
import type { OpenApiDocument } from './openapi-document.js';

/** Injection token of the OpenAPI document a port serves. */
export const OPENAPI_DOCUMENT = Symbol('OPENAPI_DOCUMENT');

/** The provider of the OpenAPI document of port `api`, built once from the core's version and `auth` section. */
export function apiDescriptionProvider(api: GuardedApi, core: ServingCore): Provider {
  return { provide: OPENAPI_DOCUMENT, useValue: describeApi(api, core.serverVersion, core.config.auth) };
}

/** Serves the port's OpenAPI description at `OPTIONS /` (TorchServe) and `GET /api-description`. */
@Controller()
export class ApiDescriptionController {
  constructor(@Inject(OPENAPI_DOCUMENT) private readonly document: OpenApiDocument) {}

  /** TorchServe's way to ask for the description. */
  @Options()
  options(): OpenApiDocument {
    return this.document;
  }

  /** The same document at a GET-able address. */
  @Get('api-description')
  get(): OpenApiDocument {
    return this.document;
  }
}
