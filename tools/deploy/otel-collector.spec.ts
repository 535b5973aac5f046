import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

// No Docker engine runs the compose file in CI: what can be checked without one is checked here,
// as `docker compose config` and `otelcol validate` would (the files parse, the mounted config
// exists, every pipeline names receivers, processors and exporters that are defined) and what the
// apps need from it (their OTLP endpoint is the collector's OTLP/HTTP receiver).
const root = path.resolve(__dirname, '..', '..');
const APPS = ['gateway', 'quote-service', 'execution-planner', 'signer-surface', 'limit-order-service'];

interface CollectorConfig {
  receivers: Record<string, { protocols?: Record<string, { endpoint?: string }> }>;
  processors?: Record<string, unknown>;
  exporters: Record<string, { endpoint?: string } | null>;
  extensions?: Record<string, unknown>;
  service: {
    extensions?: string[];
    pipelines: Record<string, { receivers: string[]; processors?: string[]; exporters: string[] }>;
  };
}

const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
const collectorService = compose.services['otel-collector'];

describe('the OpenTelemetry Collector of docker-compose.yml', () => {
  const mount = (collectorService.volumes as string[]).find((v) => v.includes('collector.yaml'))!;
  const [hostFile, containerFile] = mount.split(':');
  const config = parse(fs.readFileSync(path.join(root, hostFile), 'utf8')) as CollectorConfig;

  it('runs a pinned collector-contrib image on the config file mounted from deploy/otel', () => {
    expect(collectorService.image).toMatch(/^otel\/opentelemetry-collector-contrib:\d+\.\d+\.\d+$/);
    expect(hostFile).toBe('./deploy/otel/collector.yaml');
    expect(fs.existsSync(path.join(root, hostFile))).toBe(true);
    expect(collectorService.command).toEqual([`--config=${containerFile}`]);
  });

  it('names in each pipeline only receivers, processors, exporters and extensions it defines', () => {
    const pipelines = Object.entries(config.service.pipelines);
    expect(pipelines.map(([name]) => name).sort()).toEqual(['metrics', 'traces']);
    for (const [, pipeline] of pipelines) {
      expect(pipeline.receivers.length).toBeGreaterThan(0);
      expect(pipeline.exporters.length).toBeGreaterThan(0);
      for (const r of pipeline.receivers) expect(Object.keys(config.receivers)).toContain(r);
      for (const p of pipeline.processors ?? []) expect(Object.keys(config.processors ?? {})).toContain(p);
      for (const e of pipeline.exporters) expect(Object.keys(config.exporters)).toContain(e);
    }
    for (const x of config.service.extensions ?? [])
      expect(Object.keys(config.extensions ?? {})).toContain(x);
    // Something defined and used nowhere is a typo waiting to happen.
    const used = new Set(
      pipelines.flatMap(([, p]) => [...p.receivers, ...(p.processors ?? []), ...p.exporters]),
    );
    for (const name of [
      ...Object.keys(config.receivers),
      ...Object.keys(config.processors ?? {}),
      ...Object.keys(config.exporters),
    ]) {
      expect(used).toContain(name);
    }
  });

  it('receives the apps’ OTLP traces and metrics and serves the metrics for a Prometheus scrape', () => {
    expect(config.service.pipelines.traces.receivers).toContain('otlp');
    expect(config.service.pipelines.metrics.receivers).toContain('otlp');
    expect(config.receivers.otlp.protocols?.http?.endpoint).toBe('0.0.0.0:4318');
    expect(config.service.pipelines.metrics.exporters).toContain('prometheus');
    const scrapePort = config.exporters.prometheus!.endpoint!.split(':')[1];
    expect(collectorService.ports).toContain(`127.0.0.1:${scrapePort}:${scrapePort}`);
  });

  it('is where every app sends its traces and metrics, and starts before them', () => {
    for (const app of APPS) {
      const service = compose.services[app];
      expect(service.environment.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector:4318');
      expect(service.depends_on['otel-collector']).toEqual({ condition: 'service_started' });
    }
  });
});
