import { ERROR_CODES, type SluiceError } from '../../../sdk/errors/index.js';

/** Which error body a route family answers with. */
export type ErrorStyle = 'torchserve' | 'oip';

/** TorchServe's error body, plus Sluice's stable code. */
export interface TorchServeErrorBody {
  readonly code: number;
  readonly type: string;
  readonly message: string;
  readonly errorCode: string;
  /** Each problem of a refused file or request, when the error lists them. */
  readonly problems?: readonly unknown[];
  /** The plugin at fault, for errors a plugin caused. */
  readonly plugin?: string;
  /** The code of the error behind this one (a failed workflow node's), when it had one. */
  readonly causeCode?: string;
}

/** The Open Inference Protocol / KServe error body, plus Sluice's stable code. */
export interface OipErrorBody {
  readonly error: string;
  readonly errorCode: string;
  readonly problems?: readonly unknown[];
  readonly plugin?: string;
  readonly causeCode?: string;
}

/** The error style of a URL: `/v1/…` and `/v2/…` speak KServe/OIP, everything else TorchServe. */
export function errorStyleOf(url: string): ErrorStyle {
  return /^\/v[12](\/|$|\?)/.test(url) ? 'oip' : 'torchserve';
}

/** Structured problems an error carries (a refused workflow's `file:line:col` problems), when it has them. */
function problemsOf(error: SluiceError): { problems?: readonly unknown[] } {
  const problems = error.details['problems'];
  return Array.isArray(problems) ? { problems } : {};
}

/** The plugin an error names in its details, when a plugin caused it. */
function pluginOf(error: SluiceError): { plugin?: string } {
  const plugin = error.details['plugin'];
  return typeof plugin === 'string' ? { plugin } : {};
}

/** The code of the error behind `error`, when it names one (a failed workflow node's cause). */
function causeOf(error: SluiceError): { causeCode?: string } {
  const causeCode = error.details['causeCode'];
  return typeof causeCode === 'string' ? { causeCode } : {};
}

/** The body for `error` in `style` with the given HTTP status. */
export function errorBody(error: SluiceError, status: number, style: ErrorStyle): TorchServeErrorBody | OipErrorBody {
  if (style === 'oip') return { error: error.message, errorCode: error.code, ...problemsOf(error), ...pluginOf(error), ...causeOf(error) };
  return { code: status, type: ERROR_CODES[error.code].type, message: error.message, errorCode: error.code, ...problemsOf(error), ...pluginOf(error), ...causeOf(error) };
}
