// The first import of main.ts: tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) must hook pg and
// http before anything loads them.
import { startTelemetry } from '@swapgw/runtime/tracing';

export const telemetry = startTelemetry('quote-service');
