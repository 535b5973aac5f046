import fs from 'node:fs';
import path from 'node:path';
import { initProcessMetrics, metricsRegistry } from '@swapgw/runtime';

const root = path.resolve(__dirname, '..', '..');

/** Source files of apps/ and libs/ that define metrics (they import prom-client), tests aside. */
export function metricDefiningFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'test') walk(rel);
      } else if (/\.ts$/.test(entry.name) && !/\.(int-|e2e-)?spec\.ts$/.test(entry.name)) {
        if (/from 'prom-client'/.test(fs.readFileSync(path.join(root, rel), 'utf8'))) out.push(rel);
      }
    }
  };
  walk('apps');
  walk('libs');
  return out.sort();
}

/** Series names a metric of this type exposes in the Prometheus text format. */
function seriesNamesOf(name: string, type: string): string[] {
  if (type === 'histogram') return [`${name}_bucket`, `${name}_sum`, `${name}_count`];
  if (type === 'summary') return [name, `${name}_sum`, `${name}_count`];
  return [name];
}

/**
 * Every series name the apps serve on /metrics: the process registry as the apps fill it, after
 * loading every module that defines metrics (so a metric added anywhere is seen) and starting the
 * default process metrics as each app does at boot.
 */
export async function exportedSeriesNames(): Promise<Set<string>> {
  for (const file of metricDefiningFiles()) require(path.join(root, file));
  initProcessMetrics('monitoring-spec');
  const metrics = await metricsRegistry().getMetricsAsJSON();
  return new Set(metrics.flatMap((m) => seriesNamesOf(m.name, String(m.type))));
}

/**
 * Series that Prometheus itself writes for every scrape target (not served by any app), allowed in
 * expressions: `up` is how an alert sees a target that does not answer at all.
 */
export const PROMETHEUS_SERIES: Record<string, string> = {
  up: 'Prometheus, per scrape target: 1 when the last scrape answered (job = app.kubernetes.io/name, PodMonitor deploy/monitoring/pod-monitor.yaml)',
};
