import { describe, expect, it } from '@jest/globals';
import { DEFAULT_CONFIG } from '../../../../src/config/sluice-config.js';
import { resolveTelemetrySettings } from '../../../../src/telemetry/tracing/telemetry-settings.js';

const CONFIG = DEFAULT_CONFIG.telemetry;

describe('resolveTelemetrySettings', () => {
  it('keeps tracing off and OTLP on localhost by default', () => {
    expect(resolveTelemetrySettings(CONFIG, {})).toMatchObject({
      serviceName: 'sluice',
      tracesExporter: 'none',
      tracesEndpoint: 'http://localhost:4318/v1/traces',
      sampler: 'parentbased_always_on',
      metricsOtlp: false,
      logRequestBodies: false,
    });
  });

  it('lets the standard OTEL_* variables win over the config file', () => {
    const settings = resolveTelemetrySettings(CONFIG, {
      OTEL_SERVICE_NAME: 'edge-sluice',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(settings).toMatchObject({
      serviceName: 'edge-sluice',
      tracesExporter: 'otlp',
      tracesEndpoint: 'http://collector:4318/v1/traces',
      metricsOtlp: true,
      metricsEndpoint: 'http://collector:4318/v1/metrics',
      sampler: 'parentbased_traceidratio',
      samplerArg: 0.25,
    });
  });

  it('uses a per-signal endpoint as it is', () => {
    expect(resolveTelemetrySettings(CONFIG, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://tempo:4318/v1/traces' }).tracesEndpoint).toBe('http://tempo:4318/v1/traces');
  });

  it('turns everything off with OTEL_SDK_DISABLED', () => {
    expect(resolveTelemetrySettings({ ...CONFIG, tracesExporter: 'otlp', metricsExporter: 'otlp' }, { OTEL_SDK_DISABLED: 'true' })).toMatchObject({
      tracesExporter: 'none',
      metricsOtlp: false,
    });
  });

  it('refuses an unknown exporter naming the variable', () => {
    expect(() => resolveTelemetrySettings(CONFIG, { OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/^OTEL_TRACES_EXPORTER: "zipkin" is not allowed; use otlp, console, none$/);
  });

  it('refuses a sampler ratio outside 0..1', () => {
    expect(() => resolveTelemetrySettings(CONFIG, { OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
  });
});
