import { describe, expect, it } from '@jest/globals';
import { sumSamples } from '../../../bench/grpc-call-counters.js';

const METRICS = `# HELP sluice_errors_total Error answers per Sluice error code and transport.
# TYPE sluice_errors_total counter
sluice_errors_total{code="SLUICE_MODEL_NOT_FOUND",transport="grpc"} 3
sluice_errors_total{code="SLUICE_REQUEST_INVALID",transport="grpc"} 2
sluice_errors_total{code="SLUICE_MODEL_NOT_FOUND",transport="http"} 7
ts_inference_requests_total{model_name="mlp",model_version="1.0"} 832
ts_inference_requests_total{model_name="mlp2",model_version="1.0"} 5
`;

describe('sumSamples', () => {
  it('sums the samples of a metric whose labels include the given ones', () => {
    expect(sumSamples(METRICS, 'sluice_errors_total', ['transport="grpc"'])).toBe(5);
    expect(sumSamples(METRICS, 'ts_inference_requests_total', ['model_name="mlp"'])).toBe(832);
  });

  it('is 0 for a metric with no sample yet', () => {
    expect(sumSamples('', 'sluice_errors_total', ['transport="grpc"'])).toBe(0);
  });
});
