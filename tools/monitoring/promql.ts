import { parser } from '@prometheus-io/lezer-promql';

export interface PromqlReading {
  /** Metric names the expression selects (by name or by a `__name__="…"` matcher). */
  metrics: string[];
  /** Syntax errors (the text at each) and selectors without a fixed metric name. */
  problems: string[];
}

/**
 * Grafana's built-in interval variables are not PromQL: each stands for a duration, which is what
 * Prometheus receives once Grafana has substituted it.
 */
const GRAFANA_INTERVALS = /\$__(rate_interval|interval|range)\b/g;

/**
 * Reads an expression with the Prometheus project's own PromQL grammar (@prometheus-io/lezer-promql,
 * the one Prometheus's UI uses): the metric names it selects, and what makes it invalid.
 */
export function readPromql(expression: string): PromqlReading {
  const text = expression.replace(GRAFANA_INTERVALS, '5m');
  const tree = parser.parse(text);
  const metrics = new Set<string>();
  const problems: string[] = [];
  const cursor = tree.cursor();
  do {
    if (cursor.type.isError) {
      problems.push(`syntax error at ${cursor.from}: "${text.slice(cursor.from, cursor.to + 20)}"`);
      continue;
    }
    if (cursor.name !== 'VectorSelector') continue;
    const selector = cursor.node;
    const identifier = selector.getChild('Identifier');
    const byName = selector
      .getChild('LabelMatchers')
      ?.getChildren('UnquotedLabelMatcher')
      .find((m) => text.slice(m.from, m.to).match(/^__name__\s*=\s*"/));
    if (identifier) metrics.add(text.slice(identifier.from, identifier.to));
    else if (byName)
      metrics.add(JSON.parse(text.slice(byName.from, byName.to).replace(/^__name__\s*=\s*/, '')));
    else problems.push(`selector without a metric name: ${text.slice(selector.from, selector.to)}`);
  } while (cursor.next());
  if (text.trim() === '') problems.push('empty expression');
  return { metrics: [...metrics].sort(), problems };
}
