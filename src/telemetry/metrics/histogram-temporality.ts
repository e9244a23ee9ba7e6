import type { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { AggregationTemporality, InstrumentType } from '@opentelemetry/sdk-metrics';

/**
 * The temporality `exporter` wants for each kind of instrument. It is built against its own copy of
 * sdk-metrics, whose enums equal ours by value but not by type.
 */
export function exporterTemporality(exporter: OTLPMetricExporter): (instrument: InstrumentType) => AggregationTemporality {
  const select = exporter.selectAggregationTemporality.bind(exporter) as unknown as (instrumentType: string) => number;
  const delta: number = AggregationTemporality.DELTA;
  return (instrument) => (select(instrument) === delta ? AggregationTemporality.DELTA : AggregationTemporality.CUMULATIVE);
}

/** The temporality `exporter` wants for histograms. */
export function histogramTemporality(exporter: OTLPMetricExporter): AggregationTemporality {
  return exporterTemporality(exporter)(InstrumentType.HISTOGRAM);
}
