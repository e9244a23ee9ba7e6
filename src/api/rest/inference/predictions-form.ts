import { setOwn } from '../../../sdk/collections/own-property.js';
import { SluiceError } from '../../../sdk/errors/index.js';
import { handlerRequestFromBytes } from '../../bodies/handler-body.js';
import type { FormRequests } from '../../operations/predictions-operation.js';
import { readMultipartForm, type FormLimits } from '../request-body/multipart-form.js';

/** The limits of a prediction form: the body limit bounds it whole, these its parts. */
export const PREDICTION_FORM_LIMITS: FormLimits = { maxParts: 32 };

/** The largest field besides the `data` and `body` parts, in bytes: a parameter, not an input. */
export const MAX_FORM_PARAMETER_BYTES = 64 * 1024;

/** The part names TorchServe's handlers read the input from. */
const DATA_PARTS: ReadonlySet<string> = new Set(['data', 'body']);

/**
 * A `multipart/form-data` prediction body as TorchServe reads it: each `data` (or `body`) part is one
 * request of the handler (its bytes read as a body of the part's media type: JSON parsed, anything else
 * bytes), and the other fields go with every request as its `parameters`. A parameter over
 * {@link MAX_FORM_PARAMETER_BYTES} is refused (`SLUICE_MULTIPART_PART_TOO_LARGE`). A form without a
 * data part has no requests: a model refuses it, a workflow takes its fields as its inputs.
 */
export async function predictionForm(body: Uint8Array, contentTypeHeader: string): Promise<FormRequests> {
  const parts = await readMultipartForm(body, contentTypeHeader, PREDICTION_FORM_LIMITS);
  const parameters: Record<string, string | Uint8Array> = {};
  const fields: Record<string, unknown> = {};
  for (const part of parts) {
    const value = part.filename === undefined ? Buffer.from(part.bytes).toString('utf8') : part.bytes;
    // A part may be called `__proto__`: an assignment would make its value the record's prototype.
    setOwn(fields, part.name, value);
    if (DATA_PARTS.has(part.name)) continue;
    if (part.bytes.byteLength > MAX_FORM_PARAMETER_BYTES) {
      throw new SluiceError(
        'SLUICE_MULTIPART_PART_TOO_LARGE',
        `form part \`${part.name}\` is ${String(part.bytes.byteLength)} bytes, over the ${String(MAX_FORM_PARAMETER_BYTES)} a parameter may hold; send the input as a part named data (or body), which only the body limit bounds`,
        { part: part.name, bytes: part.bytes.byteLength, limit: MAX_FORM_PARAMETER_BYTES },
      );
    }
    setOwn(parameters, part.name, value);
  }
  const data = parts.filter((part) => DATA_PARTS.has(part.name));
  const hasParameters = Object.keys(parameters).length > 0;
  const requests = data.map((part) => ({
    ...handlerRequestFromBytes(part.bytes, part.contentType),
    ...(hasParameters ? { parameters } : {}),
    ...(part.filename !== undefined ? { filename: part.filename } : {}),
  }));
  return { kind: 'form', requests, fields };
}
