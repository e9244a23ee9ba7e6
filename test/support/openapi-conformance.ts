import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

/** An OpenAPI 3.1 document as served, read loosely: the tests check what they use. */
export interface OpenApiDoc {
  readonly openapi: string;
  readonly paths: Readonly<Record<string, Readonly<Record<string, OperationDoc>>>>;
  readonly components?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** An operation of the document. */
export interface OperationDoc {
  readonly operationId: string;
  readonly parameters?: readonly unknown[];
  readonly requestBody?: { readonly content: Readonly<Record<string, { readonly schema?: unknown }>> };
  readonly responses: Readonly<Record<string, unknown>>;
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
}

/** An answer as the test got it. */
export interface ReceivedAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: unknown;
}

/** An RFC 3339 date-time, as `Date#toISOString` writes them and JSON Schema's `date-time` names them. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

const COMPONENT_SCHEMAS = '#/components/schemas/';

/** `node` with every reference to a component schema pointed at `defs` (`#/$defs/`, or that of another schema), where ajv finds it. */
function toDefs(node: unknown, defs: string): unknown {
  if (Array.isArray(node)) return node.map((item) => toDefs(item, defs));
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_SCHEMAS) ? `${defs}${value.slice(COMPONENT_SCHEMAS.length)}` : toDefs(value, defs),
    ]),
  );
}

function mediaTypeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function errorsText(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '(top level)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
}

/**
 * A served OpenAPI description, for checking real requests and answers against it: the operation a
 * request reaches, and whether an answer's body has the schema its status and media type document. The
 * schemas are compiled with ajv's JSON Schema 2020-12 build (the dialect of OpenAPI 3.1), refusing unknown
 * keywords and formats.
 */
export class DescribedApi {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly root = 'https://sluice.invalid/openapi-components';

  constructor(readonly document: OpenApiDoc) {
    this.ajv = new Ajv2020({
      // Unknown keywords and formats are mistakes; `required` beside no `type` (in `oneOf` branches) is an idiom.
      strictSchema: true,
      strictNumbers: true,
      strictTuples: true,
      strictTypes: false,
      strictRequired: false,
      allErrors: true,
      allowUnionTypes: true,
      formats: { 'date-time': (value: string) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)), binary: true },
    });
    this.ajv.addSchema({ $id: this.root, $defs: toDefs(document.components?.['schemas'] ?? {}, '#/$defs/') as Record<string, unknown> });
  }

  /** Compiles every component schema: a keyword ajv does not know, or a dangling reference, throws. */
  compileAll(): void {
    for (const name of Object.keys(this.document.components?.['schemas'] ?? {})) this.validator({ $ref: `${COMPONENT_SCHEMAS}${name}` });
  }

  /** The template and operation that `method` on `path` (no query) reaches; undefined when none documents it. */
  operation(method: string, path: string): { readonly template: string; readonly operation: OperationDoc } | undefined {
    for (const [template, operations] of Object.entries(this.document.paths)) {
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      const operation = operations[method.toLowerCase()];
      if (operation !== undefined && pattern.test(path)) return { template, operation };
    }
    return undefined;
  }

  /** Why `body` sent as `contentType` is not a request body of the operation (empty when it is). */
  requestProblems(method: string, path: string, contentType: string, body: unknown): string[] {
    const found = this.operation(method, path);
    if (found === undefined) return [`no operation documents ${method} ${path}`];
    const content = found.operation.requestBody?.content ?? {};
    const media = this.pickMedia(content, contentType);
    if (media === undefined) return [`${method} ${found.template} documents no request body of type ${contentType} (only ${Object.keys(content).join(', ')})`];
    return this.schemaProblems(content[media]?.schema, body);
  }

  /** Why `answer` is not an answer the operation documents for its status and media type (empty when it is). */
  answerProblems(method: string, path: string, answer: ReceivedAnswer): string[] {
    const found = this.operation(method, path);
    if (found === undefined) return [`no operation documents ${method} ${path}`];
    const { responses } = found.operation;
    const response = this.resolve(responses[String(answer.status)] ?? responses['default']) as { content?: Record<string, { schema?: unknown }> } | undefined;
    if (response === undefined) return [`${method} ${found.template} documents no answer ${answer.status}`];
    const content = response.content ?? {};
    const media = this.pickMedia(content, answer.contentType ?? '');
    if (media === undefined) return [`${method} ${found.template} ${answer.status} documents no body of type ${String(answer.contentType)} (only ${Object.keys(content).join(', ')})`];
    return this.schemaProblems(content[media]?.schema, answer.body);
  }

  /** Why `value` does not have the shape of the component schema `name` (empty when it has). */
  componentProblems(name: string, value: unknown): string[] {
    return this.schemaProblems({ $ref: `${COMPONENT_SCHEMAS}${name}` }, value);
  }

  /** Every operation of the document, by operationId. */
  operationIds(): string[] {
    return Object.values(this.document.paths).flatMap((operations) => Object.values(operations).map((operation) => operation.operationId));
  }

  /** The documented media type or range that `contentType` falls under: the type itself, then its range, then any. */
  private pickMedia(content: Readonly<Record<string, unknown>>, contentType: string): string | undefined {
    const media = mediaTypeOf(contentType);
    const keys = Object.keys(content);
    return keys.find((key) => mediaTypeOf(key) === media) ?? keys.find((key) => key === `${media.split('/')[0] ?? ''}/*`) ?? keys.find((key) => key === '*/*');
  }

  private resolve(node: unknown): unknown {
    const ref = (node as { $ref?: unknown } | undefined)?.$ref;
    if (typeof ref !== 'string') return node;
    const [, kind = '', name = ''] = /^#\/components\/([^/]+)\/(.+)$/.exec(ref) ?? [];
    return this.document.components?.[kind]?.[name];
  }

  private schemaProblems(schema: unknown, value: unknown): string[] {
    if (schema === undefined) return ['no schema'];
    const validate = this.validator(schema);
    return validate(value) ? [] : errorsText(validate.errors);
  }

  /** `schema` (an operation's, with references to component schemas) compiled, once. */
  private validator(schema: unknown): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile(toDefs(schema, `${this.root}#/$defs/`) as Record<string, unknown>);
      this.compiled.set(key, validate);
    }
    return validate;
  }
}
