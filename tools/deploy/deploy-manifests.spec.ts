import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { allTopicSpecs } from '@swapgw/contracts';
import { parseAllDocuments } from 'yaml';
import { renderTopicsManifest, TOPICS_MANIFEST_PATH } from './topics-manifest';

const root = path.resolve(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

function parseAll(file: string): any[] {
  const text = read(file);
  expect(text).not.toMatch(/\t/); // YAML forbids tabs for indentation
  const docs = parseAllDocuments(text, { merge: true });
  for (const doc of docs) expect(doc.errors.map((e) => e.message)).toEqual([]);
  return docs.map((d) => d.toJSON()).filter((d) => d !== null);
}

// Gateway readiness: /api/v1/health?scope=instance answers 503 while Kafka or PostgreSQL is down,
// which must take a pod out of the Service, not restart it (and not while another service is down:
// builds then wait, answered 202); GET /metrics on its metrics port (METRICS_PORT, apart from
// the API port) answers whenever the process runs. The Kafka services serve all three on HEALTH_PORT.
// maxReplicas: the partitions an instance can get (8 per reply topic for the gateway, 6 per topic
// for the services).
const APPS = [
  {
    app: 'gateway',
    port: 3000,
    ready: '/api/v1/health?scope=instance',
    live: '/metrics',
    metricsPort: 9464,
    maxReplicas: 8,
  },
  {
    app: 'quote-service',
    port: 3101,
    ready: '/health/ready',
    live: '/health/live',
    metricsPort: 3101,
    maxReplicas: 6,
  },
  {
    app: 'execution-planner',
    port: 3102,
    ready: '/health/ready',
    live: '/health/live',
    metricsPort: 3102,
    maxReplicas: 6,
  },
  {
    app: 'signer-surface',
    port: 3103,
    ready: '/health/ready',
    live: '/health/live',
    metricsPort: 3103,
    maxReplicas: 6,
  },
  {
    app: 'limit-order-service',
    port: 3104,
    ready: '/health/ready',
    live: '/health/live',
    metricsPort: 3104,
    maxReplicas: 6,
  },
];

/** The containerPort a probe's `port` (a number or a port name) points at. */
function containerPortOf(container: any, port: number | string): number | undefined {
  return typeof port === 'number' ? port : container.ports.find((p: any) => p.name === port)?.containerPort;
}

describe('deploy/kafka/topics.yaml', () => {
  it('matches the topics declared in libs/contracts (run `npm run topics:manifest` after changing them)', () => {
    expect(read(TOPICS_MANIFEST_PATH)).toBe(renderTopicsManifest());
  });

  it('declares every topic with its partitions', () => {
    const docs = parseAll(TOPICS_MANIFEST_PATH);
    expect(docs.map((d) => [d.spec.topicName, d.spec.partitions])).toEqual(
      allTopicSpecs().map((s) => [s.name, s.partitions]),
    );
    for (const doc of docs) expect(doc.kind).toBe('KafkaTopic');
  });
});

describe('deploy/k8s', () => {
  it.each(APPS)(
    '$app has a Deployment with readiness $ready, liveness $live, metrics on $metricsPort, and a Service',
    ({ app, port, ready, live, metricsPort }) => {
      const file = `deploy/k8s/apps/${app}.yaml`;
      const text = read(file);
      expect(text).toContain(`dist/apps/${app}/src/main.js`);
      const docs = parseAll(file);
      const deployment = docs.find((d) => d.kind === 'Deployment');
      const service = docs.find((d) => d.kind === 'Service');
      expect(deployment.metadata.name).toBe(app);
      const container = deployment.spec.template.spec.containers[0];
      expect(container.readinessProbe.httpGet.path).toBe(ready);
      expect(containerPortOf(container, container.readinessProbe.httpGet.port)).toBe(port);
      expect(container.livenessProbe.httpGet.path).toBe(live);
      expect(containerPortOf(container, container.livenessProbe.httpGet.port)).toBe(metricsPort);
      expect(container.ports[0].containerPort).toBe(port);
      expect(container.ports.map((p: any) => p.containerPort)).toContain(metricsPort);
      const portVariable = app === 'gateway' ? 'PORT' : 'HEALTH_PORT';
      expect(container.env).toContainEqual({ name: portVariable, value: String(port) });
      if (app === 'gateway')
        expect(container.env).toContainEqual({ name: 'METRICS_PORT', value: String(metricsPort) });
      expect(container.envFrom).toEqual([
        { configMapRef: { name: 'swapgw-config' } },
        { secretRef: { name: 'swapgw-secrets' } },
      ]);
      expect(container.startupProbe.httpGet.path).toBe(live);
      expect(containerPortOf(container, container.startupProbe.httpGet.port)).toBe(metricsPort);
      expect(deployment.spec.template.metadata.annotations).toEqual({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(metricsPort),
        'prometheus.io/path': '/metrics',
      });
      // The selector must match the pod labels, or the Deployment is rejected.
      expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
      expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      // The Service carries the app's port only: the gateway's metrics are scraped from the pods.
      expect(service.spec.ports.map((p: any) => p.port)).toEqual([port]);
    },
  );

  it.each(APPS)(
    '$app has a CPU HorizontalPodAutoscaler (2 to $maxReplicas) and a PodDisruptionBudget on its Deployment',
    ({ app, maxReplicas }) => {
      const docs = parseAll(`deploy/k8s/apps/${app}.yaml`);
      const deployment = docs.find((d) => d.kind === 'Deployment');
      const hpas = docs.filter((d) => d.kind === 'HorizontalPodAutoscaler');
      const pdbs = docs.filter((d) => d.kind === 'PodDisruptionBudget');
      expect(hpas).toHaveLength(1);
      expect(pdbs).toHaveLength(1);
      const [hpa] = hpas;
      const [pdb] = pdbs;

      expect(hpa.apiVersion).toBe('autoscaling/v2');
      expect(hpa.metadata.namespace).toBe(deployment.metadata.namespace);
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: app });
      expect(hpa.spec.minReplicas).toBe(2);
      expect(hpa.spec.maxReplicas).toBe(maxReplicas);
      expect(hpa.spec.metrics).toEqual([
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } },
        },
      ]);
      const target = hpa.spec.metrics[0].resource.target.averageUtilization;
      expect(target).toBeGreaterThanOrEqual(50);
      expect(target).toBeLessThanOrEqual(90);
      // The HPA owns the replica count: a replicas field would reset it on every apply.
      expect(deployment.spec.replicas).toBeUndefined();
      // CPU utilisation is relative to the request: every container must have one.
      for (const container of deployment.spec.template.spec.containers)
        expect(container.resources.requests.cpu).toBeDefined();

      expect(pdb.apiVersion).toBe('policy/v1');
      expect(pdb.metadata.namespace).toBe(deployment.metadata.namespace);
      expect(pdb.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
      expect(deployment.spec.template.metadata.labels).toMatchObject(pdb.spec.selector.matchLabels);
      // One pod at a time, whatever the count: never all of them, never a budget that blocks every drain.
      expect(pdb.spec).toMatchObject({ maxUnavailable: 1 });
      expect(pdb.spec.minAvailable).toBeUndefined();
    },
  );

  it('lists every manifest it needs in the kustomization, and each file exists', () => {
    const docs = parseAll('deploy/kustomization.yaml');
    const resources: string[] = docs[0].resources;
    for (const { app } of APPS) expect(resources).toContain(`k8s/apps/${app}.yaml`);
    for (const resource of resources) expect(fs.existsSync(path.join(root, 'deploy', resource))).toBe(true);
    // An example among the resources would overwrite the operator's real object on every apply.
    expect(resources.filter((resource) => /example/.test(resource))).toEqual([]);
  });

  it('configures chains as production does: the catalog in the image, RPC URLs as secrets, no chains manifest', () => {
    const [configMap] = parseAll('deploy/k8s/configmap.yaml');
    expect(Object.keys(configMap.data)).not.toContain('DEVNET_MANIFEST');
    for (const { app } of APPS) {
      const [deployment] = parseAll(`deploy/k8s/apps/${app}.yaml`);
      const volumes = (deployment.spec.template.spec.volumes ?? []).map((v: { name: string }) => v.name);
      expect(volumes).not.toContain('chains');
    }
  });

  it('keeps secrets out of the ConfigMap', () => {
    const [configMap] = parseAll('deploy/k8s/configmap.yaml');
    expect(Object.keys(configMap.data)).not.toContain('DATABASE_URL');
    const [secret] = parseAll('deploy/k8s/secret.example.yaml');
    expect(Object.keys(secret.stringData)).toEqual([
      'DATABASE_URL',
      'RPC_URL_ETHEREUM',
      'RPC_URL_BASE',
      'RPC_URL_ARBITRUM',
      'RPC_URL_SOLANA',
    ]);
  });
});

describe('docker-compose.yml', () => {
  it('runs Kafka, PostgreSQL, the topic init and the five apps with health checks', () => {
    const [compose] = parseAll('docker-compose.yml');
    const services = compose.services;
    expect(Object.keys(services).sort()).toEqual(
      ['kafka', 'postgres', 'topic-init', ...APPS.map((a) => a.app)].sort(),
    );
    expect(services.kafka.image).toMatch(/^apache\/kafka:/);
    expect(services.kafka.environment.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(services.postgres.image).toBe('postgres:15');
    expect(services['topic-init'].command).toEqual(['node', 'dist/tools/deploy/ensure-topics.js']);
    // A one-shot job: the image's HEALTHCHECK is an app's.
    expect(services['topic-init'].healthcheck).toEqual({ disable: true });
    // The gateway's metrics on their own port, published next to the API's.
    expect(services.gateway.environment.METRICS_PORT).toBe(9464);
    expect(services.gateway.ports).toEqual(['127.0.0.1:3000:3000', '127.0.0.1:9464:9464']);
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
  it('builds with node 24 in stages and starts the app named by APP', () => {
    const text = read('Dockerfile');
    expect(text).toMatch(/ARG NODE_IMAGE=node:24\./);
    expect(text.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
    expect(text).toContain('dist/apps/${APP}/src/main.js');
    expect(text).toContain('USER node');
    const exposed = (/^EXPOSE (.*)$/m.exec(text)?.[1] ?? '').split(/\s+/).map(Number);
    for (const { port, metricsPort } of APPS)
      expect(exposed).toEqual(expect.arrayContaining([port, metricsPort]));
  });

  describe('HEALTHCHECK', () => {
    const healthcheck = () => {
      const line = read('Dockerfile')
        .replace(/\\\n\s*/g, ' ')
        .split('\n')
        .filter((l) => l.startsWith('HEALTHCHECK '));
      expect(line).toHaveLength(1);
      const match = /^HEALTHCHECK (.*?)CMD (\[.*\])$/.exec(line[0]);
      if (!match) throw new Error(`HEALTHCHECK not in exec form: ${line[0]}`);
      return { options: match[1], command: JSON.parse(match[2]) as string[] };
    };

    it('is node -e (no curl in the slim image), bounded and with a start period', () => {
      const { options, command } = healthcheck();
      expect(command.slice(0, 2)).toEqual(['node', '-e']);
      expect(command).toHaveLength(3);
      expect(options).toMatch(/--timeout=\d+s/);
      expect(options).toMatch(/--start-period=\d+s/);
    });

    // Runs the check's script for each APP against a local server standing in for the app: it must
    // ask the app's own endpoint, on the port the container's environment (or the default) gives.
    it.each(APPS)(
      'checks $app on its health endpoint: healthy on 200, unhealthy on 503 or no answer',
      async ({ app, port, ready }) => {
        const script = healthcheck().command[2];
        const path = app === 'gateway' ? ready : '/health/live';
        const requested: string[] = [];
        let status = 200;
        const server = createServer((req, res) => {
          requested.push(req.url ?? '');
          res.writeHead(req.url === path ? status : 404).end();
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
        const free = (server.address() as AddressInfo).port;
        const portVariable = app === 'gateway' ? 'PORT' : 'HEALTH_PORT';
        const check = (env: Record<string, string>) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, ['-e', script], {
              env: { PATH: process.env.PATH ?? '', ...env },
              stdio: 'ignore',
            });
            child.once('exit', (code) => resolve(code));
          });
        try {
          expect(await check({ APP: app, [portVariable]: String(free) })).toBe(0);
          status = 503;
          expect(await check({ APP: app, [portVariable]: String(free) })).toBe(1);
          expect(requested).toEqual([path, path]);
        } finally {
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
        // Nothing listens there any more: unhealthy, not hung.
        expect(await check({ APP: app, [portVariable]: String(free) })).toBe(1);
        // Without the variable the script falls back to the app's default port.
        expect(script).toMatch(
          app === 'gateway' ? new RegExp(`e\\.PORT\\|\\|${port}\\b`) : new RegExp(`'${app}':${port}\\b`),
        );
      },
    );
  });
});
