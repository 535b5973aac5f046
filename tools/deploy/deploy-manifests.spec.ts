import fs from 'node:fs';
import path from 'node:path';
import { allTopicSpecs } from '@swapgw/contracts';
import { renderTopicsManifest, TOPICS_MANIFEST_PATH } from './topics-manifest';

const root = path.resolve(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface YamlDocument {
  errors: Array<{ message: string }>;
  toJSON(): any;
}
interface YamlModule {
  parseAllDocuments(text: string, options?: { merge?: boolean }): YamlDocument[];
}

// `yaml` is not a direct dependency (Docker and kubectl are not available here to validate); it
// ships with the toolchain. Without it the structural checks below still run on the raw text.
function loadYaml(): YamlModule | undefined {
  try {
    return require('yaml') as YamlModule;
  } catch {
    return undefined;
  }
}
const YAML = loadYaml();

function parseAll(file: string): any[] {
  const text = read(file);
  expect(text).not.toMatch(/\t/); // YAML forbids tabs for indentation
  if (!YAML) return [];
  const docs = YAML.parseAllDocuments(text, { merge: true });
  for (const doc of docs) expect(doc.errors.map((e) => e.message)).toEqual([]);
  return docs.map((d) => d.toJSON()).filter((d) => d !== null);
}

// Gateway liveness: /api/v1/health answers 503 while Kafka or PostgreSQL is down, which must take a
// pod out of the Service, not restart it; /api/v1/metrics answers whenever the process serves HTTP.
const APPS = [
  { app: 'gateway', port: 3000, ready: '/api/v1/health', live: '/api/v1/metrics', metrics: '/api/v1/metrics' },
  { app: 'quote-service', port: 3101, ready: '/health/ready', live: '/health/live', metrics: '/metrics' },
  { app: 'execution-planner', port: 3102, ready: '/health/ready', live: '/health/live', metrics: '/metrics' },
  { app: 'signer-surface', port: 3103, ready: '/health/ready', live: '/health/live', metrics: '/metrics' },
  { app: 'limit-order-service', port: 3104, ready: '/health/ready', live: '/health/live', metrics: '/metrics' },
];

describe('deploy/kafka/topics.yaml', () => {
  it('matches the topics declared in libs/contracts (run `npm run topics:manifest` after changing them)', () => {
    expect(read(TOPICS_MANIFEST_PATH)).toBe(renderTopicsManifest());
  });

  it('declares every topic with its partitions', () => {
    const docs = parseAll(TOPICS_MANIFEST_PATH);
    if (!YAML) return;
    expect(docs.map((d) => [d.spec.topicName, d.spec.partitions])).toEqual(
      allTopicSpecs().map((s) => [s.name, s.partitions]),
    );
    for (const doc of docs) expect(doc.kind).toBe('KafkaTopic');
  });
});

describe('deploy/k8s', () => {
  it.each(APPS)('$app has a Deployment with readiness $ready, liveness $live, metrics $metrics, and a Service', ({ app, port, ready, live, metrics }) => {
    const file = `deploy/k8s/apps/${app}.yaml`;
    const text = read(file);
    expect(text).toContain(`dist/apps/${app}/src/main.js`);
    const docs = parseAll(file);
    if (!YAML) {
      expect(text).toMatch(new RegExp(`readinessProbe:\\s+httpGet:\\s+path: ${ready}`));
      expect(text).toMatch(new RegExp(`livenessProbe:\\s+httpGet:\\s+path: ${live}`));
      return;
    }
    const deployment = docs.find((d) => d.kind === 'Deployment');
    const service = docs.find((d) => d.kind === 'Service');
    expect(deployment.metadata.name).toBe(app);
    const container = deployment.spec.template.spec.containers[0];
    expect(container.readinessProbe.httpGet.path).toBe(ready);
    expect(container.livenessProbe.httpGet.path).toBe(live);
    expect(container.ports[0].containerPort).toBe(port);
    const portVariable = app === 'gateway' ? 'PORT' : 'HEALTH_PORT';
    expect(container.env).toContainEqual({ name: portVariable, value: String(port) });
    expect(container.envFrom).toEqual([
      { configMapRef: { name: 'swapgw-config' } },
      { secretRef: { name: 'swapgw-secrets' } },
    ]);
    expect(container.startupProbe.httpGet.path).toBe(live);
    expect(deployment.spec.template.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(port),
      'prometheus.io/path': metrics,
    });
    // The selector must match the pod labels, or the Deployment is rejected.
    expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(service.spec.ports[0].port).toBe(port);
  });

  it('lists every manifest it needs in the kustomization, and each file exists', () => {
    const docs = parseAll('deploy/kustomization.yaml');
    if (!YAML) return;
    const resources: string[] = docs[0].resources;
    for (const { app } of APPS) expect(resources).toContain(`k8s/apps/${app}.yaml`);
    for (const resource of resources) expect(fs.existsSync(path.join(root, 'deploy', resource))).toBe(true);
  });

  it('keeps secrets out of the ConfigMap', () => {
    const [configMap] = parseAll('deploy/k8s/configmap.yaml');
    if (!YAML) return;
    expect(Object.keys(configMap.data)).not.toContain('DATABASE_URL');
    const [secret] = parseAll('deploy/k8s/secret.example.yaml');
    expect(Object.keys(secret.stringData)).toEqual(['DATABASE_URL']);
  });
});

describe('docker-compose.yml', () => {
  it('runs Kafka, PostgreSQL, the topic init and the five apps with health checks', () => {
    const [compose] = parseAll('docker-compose.yml');
    if (!YAML) return;
    const services = compose.services;
    expect(Object.keys(services).sort()).toEqual(
      ['kafka', 'postgres', 'topic-init', ...APPS.map((a) => a.app)].sort(),
    );
    expect(services.kafka.image).toMatch(/^apache\/kafka:/);
    expect(services.kafka.environment.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(services.postgres.image).toBe('postgres:15');
    expect(services['topic-init'].command).toEqual(['node', 'dist/tools/deploy/ensure-topics.js']);
    expect(fs.existsSync(path.join(root, 'tools/deploy/ensure-topics.ts'))).toBe(true);
    for (const { app, port, ready } of APPS) {
      const service = services[app];
      expect(service.environment.APP).toBe(app);
      expect(service.environment.KAFKA_BROKERS).toBe('kafka:9092');
      expect(service.healthcheck.test.join(' ')).toContain(`127.0.0.1:${port}${ready}`);
      expect(service.depends_on['topic-init'].condition).toBe('service_completed_successfully');
      expect(service.depends_on.postgres.condition).toBe('service_healthy');
    }
  });
});

describe('Dockerfile', () => {
  it('builds with node 20 in stages and starts the app named by APP', () => {
    const text = read('Dockerfile');
    expect(text).toMatch(/ARG NODE_IMAGE=node:20/);
    expect(text.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
    expect(text).toContain('dist/apps/${APP}/src/main.js');
    expect(text).toContain('USER node');
  });
});
