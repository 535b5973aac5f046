import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { exportedSeriesNames, metricDefiningFiles, PROMETHEUS_SERIES } from './exported-metrics';
import { readPromql } from './promql';
import { headingAnchors } from './runbook-anchors';

// deploy/monitoring is the runbook's alerts and dashboards as code: every expression must be PromQL
// that Prometheus accepts and must select only series the apps serve (or Prometheus's own `up`), so
// that renaming or removing a metric cannot silently leave an alert that never fires or an empty
// panel; every alert must name the runbook section an operator opens.

const root = path.resolve(__dirname, '..', '..');
const monitoring = path.join(root, 'deploy', 'monitoring');
const read = (...parts: string[]) => fs.readFileSync(path.join(...parts), 'utf8');

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function yamlDocuments(file: string): any[] {
  const docs = parseAllDocuments(read(monitoring, file));
  for (const doc of docs) expect(doc.errors.map((e) => e.message)).toEqual([]);
  return docs.map((d) => d.toJSON());
}

const rule = yamlDocuments('prometheus-rule.yaml')[0];
const alerts: AlertRule[] = rule.spec.groups.flatMap((g: { rules: AlertRule[] }) => g.rules);
const dashboardFiles = fs.readdirSync(path.join(monitoring, 'dashboards')).filter((f) => f.endsWith('.json'));
const dashboards = dashboardFiles.map((file) => ({
  file,
  json: JSON.parse(read(monitoring, 'dashboards', file)),
}));

/** Every panel of a dashboard, those inside collapsed rows too. */
const panelsOf = (dashboard: any): any[] =>
  (dashboard.panels ?? []).flatMap((p: any) => [p, ...(p.panels ?? [])]);

/** Every PromQL expression of the dashboards: panel targets and the query variables' label_values(). */
const dashboardExpressions = dashboards.flatMap(({ file, json }) => [
  ...panelsOf(json).flatMap((p: any) =>
    (p.targets ?? []).map((t: any) => ({ where: `${file} "${p.title}" ${t.refId}`, expr: t.expr as string })),
  ),
  ...json.templating.list
    .filter((v: any) => v.type === 'query')
    .map((v: any) => ({
      where: `${file} variable ${v.name}`,
      expr: /^label_values\((.+),\s*\w+\)$/.exec(v.definition)?.[1] ?? `unreadable(${v.definition})`,
    })),
]);

let exported: Set<string>;
beforeAll(async () => {
  exported = await exportedSeriesNames();
});

/** What is wrong with an expression: syntax, or series that no app serves. */
function problemsOf(expr: string): string[] {
  const { metrics, problems } = readPromql(expr);
  const unknown = metrics.filter((m) => !exported.has(m) && !(m in PROMETHEUS_SERIES));
  return [...problems, ...unknown.map((m) => `${m} is not a series the apps serve`)];
}

describe('the series the apps serve', () => {
  it('are collected from every module that defines metrics, on the registry the apps serve', async () => {
    const files = metricDefiningFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        'apps/gateway/src/webhooks/webhook-metrics.ts',
        'apps/signer-surface/src/sponsorship/relaying-metrics.ts',
        'libs/runtime/src/metrics/messaging-metrics.ts',
      ]),
    );
    for (const name of [
      'swapgw_http_request_duration_seconds_bucket',
      'swapgw_kafka_consumer_lag_messages',
      'swapgw_relayer_balance_wei',
      'swapgw_kafka_service_up',
      'process_cpu_user_seconds_total',
    ])
      expect(exported).toContain(name);
    // A metric registered on prom-client's global registry would be served by no app.
    const { register } = await import('prom-client');
    expect((await register.getMetricsAsJSON()).map((m) => m.name)).toEqual([]);
  });
});

describe('the expression check', () => {
  it('accepts an expression on served series and Prometheus built-ins', () => {
    expect(
      problemsOf(
        'sum by (route) (rate(swapgw_http_request_duration_seconds_count{status_code=~"5.."}[5m])) > 0 or up == 0',
      ),
    ).toEqual([]);
    expect(problemsOf('rate({__name__="swapgw_kafka_dead_lettered_total"}[$__rate_interval])')).toEqual([]);
  });

  it('fails an expression naming a series no app serves', () => {
    expect(problemsOf('sum(rate(swapgw_swaps_teleported_total[5m])) > 0')).toEqual([
      'swapgw_swaps_teleported_total is not a series the apps serve',
    ]);
    // A histogram's own name is no series: only _bucket, _sum and _count are.
    expect(problemsOf('swapgw_http_request_duration_seconds > 1')).toEqual([
      'swapgw_http_request_duration_seconds is not a series the apps serve',
    ]);
  });

  it('fails an expression that is not PromQL, and a selector without a metric name', () => {
    expect(problemsOf('sum(rate(swapgw_kafka_dead_lettered_total[5m]) > 0')).not.toEqual([]);
    expect(problemsOf('max by (chain) swapgw_relayer_balance_wei)')).not.toEqual([]);
    expect(problemsOf('{job="gateway"}')).toEqual(['selector without a metric name: {job="gateway"}']);
  });
});

describe('deploy/monitoring/prometheus-rule.yaml', () => {
  const runbookAnchors = headingAnchors(read(root, 'docs', 'runbook.md'));

  it('is a PrometheusRule with the alerts of the runbook', () => {
    expect(rule).toMatchObject({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule' });
    const names = alerts.map((a) => a.alert);
    expect(new Set(names).size).toBe(names.length);
    // relayer balance, reverts, stuck transactions, spend per key, consumer lag, dead letters,
    // 5xx rate, service down
    expect(names).toEqual(
      expect.arrayContaining([
        'SwapgwRelayerBalanceLow',
        'SwapgwSponsoredTransactionsReverted',
        'SwapgwSponsoredTransactionStuck',
        'SwapgwSponsoredSpendSurge',
        'SwapgwConsumerLagging',
        'SwapgwDeadLetters',
        'SwapgwGateway5xx',
        'SwapgwServiceDown',
      ]),
    );
  });

  it.each(alerts.map((a) => [a.alert, a]))(
    '%s: valid PromQL on served series, a severity, a summary and a runbook section that exists',
    (_name, alert) => {
      expect(problemsOf(alert.expr)).toEqual([]);
      expect(['warning', 'critical']).toContain(alert.labels?.severity);
      if (alert.for !== undefined) expect(alert.for).toMatch(/^\d+[smh]$/);
      expect(alert.annotations?.summary).toBeTruthy();
      expect(alert.annotations?.description).toBeTruthy();
      const url = alert.annotations?.runbook_url ?? '';
      const [file, anchor] = url.split('#');
      expect(file).toBe('docs/runbook.md');
      expect([...runbookAnchors]).toContain(anchor);
    },
  );

  it('finds a runbook anchor the way GitHub makes it', () => {
    expect(
      headingAnchors(
        '## A consumer is lagging\n```\n# not a heading\n```\n### The `gateway` answers 5xx, again\n## Replays\n## Replays',
      ),
    ).toEqual(new Set(['a-consumer-is-lagging', 'the-gateway-answers-5xx-again', 'replays', 'replays-1']));
  });
});

describe('deploy/monitoring/dashboards', () => {
  it('has the swap funnel, latency, lag, relayers and webhooks dashboards, all in the ConfigMap', () => {
    expect(dashboardFiles.sort()).toEqual([
      'consumer-lag.json',
      'latency.json',
      'relayers.json',
      'swap-funnel.json',
      'webhooks.json',
    ]);
    const kustomization = yamlDocuments('kustomization.yaml')[0];
    const generator = kustomization.configMapGenerator.find(
      (g: any) => g.name === 'swapgw-grafana-dashboards',
    );
    expect(generator.options.labels).toEqual({ grafana_dashboard: '1' });
    expect([...generator.files].sort()).toEqual(dashboardFiles.map((f) => `dashboards/${f}`).sort());
    expect(kustomization.resources.sort()).toEqual(['pod-monitor.yaml', 'prometheus-rule.yaml']);
  });

  it.each(dashboards.map((d) => [d.file, d.json]))(
    '%s: a recent schema, its Prometheus chosen by ${datasource}, unique uid and panel ids',
    (_file, json: any) => {
      expect(json.schemaVersion).toBeGreaterThanOrEqual(36);
      expect(json.uid).toMatch(/^swapgw-[a-z-]+$/);
      expect(json.templating.list.find((v: any) => v.name === 'datasource')).toMatchObject({
        type: 'datasource',
        query: 'prometheus',
      });
      const ids = panelsOf(json).map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      // No data source of anyone's Grafana: every reference is the variable.
      const text = JSON.stringify(json);
      const uids = [...text.matchAll(/"uid":"([^"]*)"/g)].map((m) => m[1]);
      expect(uids.filter((u) => u !== '${datasource}' && u !== json.uid)).toEqual([]);
      for (const panel of panelsOf(json).filter((p) => p.type !== 'row')) {
        expect(panel.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
        expect(panel.targets.length).toBeGreaterThan(0);
      }
    },
  );

  it.each(dashboardExpressions.map((e) => [e.where, e.expr]))(
    '%s: valid PromQL on served series',
    (_where, expr) => {
      expect(problemsOf(expr)).toEqual([]);
    },
  );
});
