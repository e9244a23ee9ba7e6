import type { Handler, HandlerRequest } from '../../../src/sdk/handler/handler.js';

/** What `test/form-echo` answers about the request it was given. */
export interface FormEcho {
  readonly contentType: string;
  /** Text for bytes that are text, the JSON value for a parsed body. */
  readonly body: unknown;
  readonly filename?: string;
  readonly parameters?: Readonly<Record<string, string>>;
}

function textOf(value: unknown): unknown {
  return value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value;
}

function echoOf(request: HandlerRequest): FormEcho {
  const parameters = request.parameters && Object.fromEntries(Object.entries(request.parameters).map(([name, value]) => [name, String(textOf(value))]));
  return {
    contentType: request.contentType,
    body: textOf(request.body),
    ...(request.filename !== undefined ? { filename: request.filename } : {}),
    ...(parameters !== undefined ? { parameters } : {}),
  };
}

/**
 * `test/form-echo`: answers what it was given for each request (media type, body, file name, form
 * parameters), running an FP32 identity model (`input` → `output`, `[-1, -1]`) on one value meanwhile.
 */
export const FORM_ECHO_HANDLER: Handler<FormEcho> = {
  name: 'test/form-echo',
  preprocess: (requests) =>
    Promise.resolve(requests.map((request) => ({ inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 1], data: new Float32Array([1]) }], state: echoOf(request) }))),
  postprocess: (results) => Promise.resolve(results.map((result) => result.state)),
};
