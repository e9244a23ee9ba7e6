import { Controller, Get, Inject, Options } from '@nestjs/common';
import type { OpenApiDocument } from './route-doc.js';

/** Injection token of the OpenAPI document a port serves. */
export const OPENAPI_DOCUMENT = Symbol('OPENAPI_DOCUMENT');

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
