import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
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

  it('sends spans as OTLP protobuf, in batches of the specification’s size, by default', () => {
    expect(resolveTelemetrySettings(CONFIG, {})).toMatchObject({
      tracesProtocol: 'http/protobuf',
      batchSpans: { scheduledDelayMillis: 5000, exportTimeoutMillis: 30000, maxQueueSize: 2048, maxExportBatchSize: 512 },
    });
  });

  it('lets OTEL_EXPORTER_OTLP_TRACES_PROTOCOL win over OTEL_EXPORTER_OTLP_PROTOCOL', () => {
    expect(resolveTelemetrySettings(CONFIG, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).tracesProtocol).toBe('http/json');
    expect(
      resolveTelemetrySettings(CONFIG, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }).tracesProtocol,
    ).toBe('http/protobuf');
  });

  it('refuses the gRPC protocol naming the variable', () => {
    expect(() => resolveTelemetrySettings(CONFIG, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /^OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not allowed; use http\/protobuf, http\/json$/,
    );
  });

  it('reads the OTEL_BSP_* batch settings', () => {
    const settings = resolveTelemetrySettings(CONFIG, {
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_BSP_EXPORT_TIMEOUT: '1000',
      OTEL_BSP_MAX_QUEUE_SIZE: '8192',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1024',
    });
    expect(settings.batchSpans).toEqual({ scheduledDelayMillis: 200, exportTimeoutMillis: 1000, maxQueueSize: 8192, maxExportBatchSize: 1024 });
  });

  it('refuses a batch setting that is not a whole number above 0', () => {
    expect(() => resolveTelemetrySettings(CONFIG, { OTEL_BSP_MAX_QUEUE_SIZE: '0' })).toThrow(/^OTEL_BSP_MAX_QUEUE_SIZE: "0" is not allowed/);
  });

  it('gives an OTLP metric push 30 s by default, the specification’s default', () => {
    expect(resolveTelemetrySettings(CONFIG, {}).metricExportTimeoutMs).toBe(30000);
  });

  it('reads OTEL_METRIC_EXPORT_TIMEOUT', () => {
    expect(resolveTelemetrySettings(CONFIG, { OTEL_METRIC_EXPORT_TIMEOUT: '2500' }).metricExportTimeoutMs).toBe(2500);
  });

  it('cuts the metric export timeout to the export interval, set or defaulted', () => {
    expect(resolveTelemetrySettings(CONFIG, { OTEL_METRIC_EXPORT_INTERVAL: '5000', OTEL_METRIC_EXPORT_TIMEOUT: '20000' }).metricExportTimeoutMs).toBe(5000);
    expect(resolveTelemetrySettings({ ...CONFIG, metricExportIntervalMs: 1000 }, {}).metricExportTimeoutMs).toBe(1000);
  });

  it.each(['0', '-5', '1.5', 'soon', ''])('refuses OTEL_METRIC_EXPORT_TIMEOUT=%j naming it', (value) => {
    expect(() => resolveTelemetrySettings(CONFIG, { OTEL_METRIC_EXPORT_TIMEOUT: value })).toThrow(
      new SluiceError('SLUICE_CONFIG_INVALID', `OTEL_METRIC_EXPORT_TIMEOUT: ${JSON.stringify(value)} is not allowed; use a whole number of milliseconds from 1 to 2147483647 (about 24.8 days)`),
    );
  });

  it.each(['OTEL_BSP_SCHEDULE_DELAY', 'OTEL_BSP_EXPORT_TIMEOUT', 'OTEL_METRIC_EXPORT_INTERVAL', 'OTEL_METRIC_EXPORT_TIMEOUT', 'OTEL_EXPORTER_OTLP_TIMEOUT', 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'OTEL_EXPORTER_OTLP_METRICS_TIMEOUT'])(
    'refuses %s beyond the longest delay a timer can wait, naming it',
    (variable) => {
      expect(() => resolveTelemetrySettings(CONFIG, { [variable]: '2147483648' })).toThrow(
        new SluiceError('SLUICE_CONFIG_INVALID', `${variable}: "2147483648" is not allowed; use a whole number of milliseconds from 1 to 2147483647 (about 24.8 days)`),
      );
    },
  );

  it('takes the longest delay a timer can wait', () => {
    const settings = resolveTelemetrySettings(CONFIG, { OTEL_METRIC_EXPORT_INTERVAL: '2147483647', OTEL_BSP_SCHEDULE_DELAY: '2147483647', OTEL_EXPORTER_OTLP_TIMEOUT: '2147483647' });
    expect([settings.metricExportIntervalMs, settings.batchSpans.scheduledDelayMillis]).toEqual([2147483647, 2147483647]);
  });

  it('leaves a blank exporter timeout to the exporters, which take it as unset', () => {
    expect(() => resolveTelemetrySettings(CONFIG, { OTEL_EXPORTER_OTLP_TIMEOUT: ' ' })).not.toThrow();
  });

  it('refuses a batch size beyond 2^53 - 1, which a number cannot hold exactly', () => {
    expect(() => resolveTelemetrySettings(CONFIG, { OTEL_BSP_MAX_QUEUE_SIZE: '9007199254740993' })).toThrow(/^OTEL_BSP_MAX_QUEUE_SIZE: "9007199254740993" is not allowed; use a whole number above 0$/);
  });
});
