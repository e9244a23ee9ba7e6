/**
 * KServe v1's two routes share one router pattern, `/v1/models/{segment}`: `GET /v1/models/{m}` (status)
 * and `POST /v1/models/{m}:predict`, told apart by the verb after the segment's last `:` (model names have
 * no `:`). The router therefore cannot say which methods such a path takes; these functions do.
 */

/** A `/v1/models/{segment}` path as its segment, undefined for any other path. */
const KSERVE_V1_PATH = /^\/v1\/models\/([^/]+)$/;

/** The model a `{m}:predict` segment names; undefined when the segment is no `:predict` of a name. */
export function predictedModel(segment: string): string | undefined {
  const separator = segment.lastIndexOf(':');
  return separator > 0 && segment.slice(separator + 1) === 'predict' ? segment.slice(0, separator) : undefined;
}

/**
 * The methods a `/v1/models/{segment}` route takes: `GET` and `HEAD` for a model (no verb), `POST` for
 * `{m}:predict`, none for another verb.
 */
export function kserveV1Methods(segment: string): readonly string[] {
  if (!segment.includes(':')) return ['GET', 'HEAD'];
  return predictedModel(segment) !== undefined ? ['POST'] : [];
}

/** The segment of a `/v1/models/{segment}` path, percent-decoded as the router decodes it. */
function kserveV1Segment(path: string): string | undefined {
  const raw = KSERVE_V1_PATH.exec(path)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** `methods` narrowed to those the KServe v1 route of `path` takes; `methods` itself for any other path. */
export function narrowedToKServeV1(path: string, methods: string[]): string[] {
  const segment = kserveV1Segment(path);
  if (segment === undefined) return methods;
  const taken = kserveV1Methods(segment);
  return methods.filter((method) => taken.includes(method));
}
