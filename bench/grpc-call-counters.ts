/** What a Sluice server counted of its gRPC calls to one model, read from its Prometheus metrics. */
export interface GrpcCallCounters {
  /** Calls of any gRPC method answered with an error (`sluice_errors_total{transport="grpc"}`, every code). */
  readonly grpcErrors: number;
  /** Inference requests the model received, over any transport (`ts_inference_requests_total`). */
  readonly modelRequests: number;
}

/** The value of a Prometheus sample line, when its name is `name` and its labels hold every one of `labels`. */
function sampleValue(line: string, name: string, labels: readonly string[]): number | undefined {
  if (!line.startsWith(`${name}{`)) return undefined;
  const close = line.indexOf('}');
  const labelText = line.slice(name.length + 1, close);
  if (!labels.every((label) => labelText.split(',').includes(label))) return undefined;
  return Number(line.slice(close + 1).trim().split(' ')[0]);
}

/** Sums, in Prometheus text, the samples of `name` whose labels include `labels` (`key="value"`). */
export function sumSamples(text: string, name: string, labels: readonly string[]): number {
  let total = 0;
  for (const line of text.split('\n')) total += sampleValue(line, name, labels) ?? 0;
  return total;
}

/**
 * Reads the counters of `model` from the server's `/metrics` at `metricsUrl`. A load generator that
 * counts HTTP statuses (h2load) sees a failed gRPC call as a success; the server's error counter does not.
 */
export async function readGrpcCallCounters(metricsUrl: string, model: string): Promise<GrpcCallCounters> {
  const response = await fetch(`${metricsUrl}/metrics`);
  if (!response.ok) throw new Error(`GET ${metricsUrl}/metrics answered ${String(response.status)}`);
  const text = await response.text();
  return {
    grpcErrors: sumSamples(text, 'sluice_errors_total', ['transport="grpc"']),
    modelRequests: sumSamples(text, 'ts_inference_requests_total', [`model_name="${model}"`]),
  };
}
