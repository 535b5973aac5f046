import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { allTopicSpecs, KafkaApp, TOPIC_ACCESS } from '@swapgw/contracts';
import { parseAllDocuments } from 'yaml';
import { renderKustomization } from './kustomize';
import { kafkaUserOf, renderTopicsManifest, TOPICS_MANIFEST_PATH } from './topics-manifest';

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

  it('declares every topic with its partitions, as Strimzi v1 KafkaTopics', () => {
    const docs = parseAll(TOPICS_MANIFEST_PATH);
    expect(docs.map((d) => [d.spec.topicName, d.spec.partitions])).toEqual(
      allTopicSpecs().map((s) => [s.name, s.partitions]),
    );
    for (const doc of docs) expect([doc.apiVersion, doc.kind]).toEqual(['kafka.strimzi.io/v1', 'KafkaTopic']);
  });
});

const render = (dir: string) => renderKustomization(path.join(root, 'deploy', dir));
const find = (objects: any[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
const SERVICES = APPS.filter((a) => a.app !== 'gateway');

describe.each(['development', 'production'])('deploy/overlays/%s', (overlay) => {
  const objects: any[] = render(`overlays/${overlay}`);

  it.each(APPS)(
    '$app has a Deployment with readiness $ready, liveness $live, metrics on $metricsPort, and a Service',
    ({ app, port, ready, live, metricsPort }) => {
      const deployment = find(objects, 'Deployment', app);
      const service = find(objects, 'Service', app);
      expect(deployment.metadata.namespace).toBe('swapgw');
      const container = deployment.spec.template.spec.containers[0];
      expect(container.command).toEqual(['node', '--enable-source-maps', `dist/apps/${app}/src/main.js`]);
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
    '$app runs under the restricted Pod Security Standard, with a ServiceAccount of its own',
    ({ app }) => {
      const pod = find(objects, 'Deployment', app).spec.template.spec;
      expect(find(objects, 'Namespace', 'swapgw').metadata.labels['pod-security.kubernetes.io/enforce']).toBe(
        'restricted',
      );
      expect(pod.serviceAccountName).toBe(app);
      expect(find(objects, 'ServiceAccount', app).automountServiceAccountToken).toBe(false);
      expect(pod.automountServiceAccountToken).toBe(false);
      // The image's user (Dockerfile USER uid:gid).
      const [uid, gid] = /^USER (\d+):(\d+)$/m.exec(read('Dockerfile'))!.slice(1).map(Number);
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: uid,
        runAsGroup: gid,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      for (const container of pod.containers)
        expect(container.securityContext).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          runAsNonRoot: true,
          capabilities: { drop: ['ALL'] },
        });
      // Spread over zones and nodes without ever becoming unschedulable.
      expect(pod.topologySpreadConstraints.map((c: any) => [c.topologyKey, c.whenUnsatisfiable])).toEqual([
        ['topology.kubernetes.io/zone', 'ScheduleAnyway'],
        ['kubernetes.io/hostname', 'ScheduleAnyway'],
      ]);
      for (const constraint of pod.topologySpreadConstraints)
        expect(constraint.labelSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': app });
    },
  );

  it.each(APPS)(
    '$app stops gracefully: preStop first, then a grace period that covers its own drain',
    ({ app }) => {
      const pod = find(objects, 'Deployment', app).spec.template.spec;
      const [, seconds] = pod.containers[0].lifecycle.preStop.exec.command;
      expect(pod.containers[0].lifecycle.preStop.exec.command[0]).toBe('sleep');
      // The gateway's drain is bounded by SHUTDOWN_TIMEOUT_MS (its config's default); a service's by its
      // in-flight messages: 40 s are allowed for them.
      const shutdownMs = Number(
        /SHUTDOWN_TIMEOUT_MS: number = ([\d_]+)/
          .exec(read('apps/gateway/src/config/gateway.config.ts'))![1]
          .replace(/_/g, ''),
      );
      const drain = app === 'gateway' ? shutdownMs / 1000 : 40;
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(Number(seconds) + drain);
    },
  );

  it.each(APPS)('$app logs in to Kafka as its own KafkaUser, with the cluster CA', ({ app }) => {
    const pod = find(objects, 'Deployment', app).spec.template.spec;
    const env = pod.containers[0].env;
    expect(env).toContainEqual({ name: 'KAFKA_SASL_USERNAME', value: kafkaUserOf(app as KafkaApp) });
    const passwordFile = env.find((e: any) => e.name === 'KAFKA_SASL_PASSWORD_FILE').value;
    const mount = pod.containers[0].volumeMounts.find((m: any) => passwordFile.startsWith(`${m.mountPath}/`));
    const volume = pod.volumes.find((v: any) => v.name === mount.name);
    expect(volume.secret.secretName).toBe(kafkaUserOf(app as KafkaApp));
    expect(volume.secret.items).toEqual([{ key: 'password', path: path.basename(passwordFile) }]);
    const config = find(objects, 'ConfigMap', 'swapgw-config').data;
    expect(config).toMatchObject({
      KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_MANAGE_TOPICS: 'false',
    });
    const caMount = pod.containers[0].volumeMounts.find((m: any) =>
      config.KAFKA_SSL_CA_FILE.startsWith(`${m.mountPath}/`),
    );
    expect(pod.volumes.find((v: any) => v.name === caMount.name).secret.secretName).toBe(
      'swapgw-kafka-cluster-ca-cert',
    );
  });

  it('keeps examples and secrets out, and the chains as production has them', () => {
    // An example among the resources would overwrite the operator's real object on every apply.
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    const config = find(objects, 'ConfigMap', 'swapgw-config').data;
    expect(Object.keys(config)).not.toContain('DATABASE_URL');
    expect(Object.keys(config)).not.toContain('DEVNET_MANIFEST');
    for (const { app } of APPS) {
      const volumes = find(objects, 'Deployment', app).spec.template.spec.volumes.map((v: any) => v.name);
      expect(volumes).not.toContain('chains');
    }
  });

  it('denies by default and lets each app reach only what it needs', () => {
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
    const selects = (policy: any, labels: Record<string, string>) => {
      const selector = policy.spec.podSelector;
      const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
      const byExpressions = (selector.matchExpressions ?? []).every((e: any) =>
        e.values.includes(labels[e.key]),
      );
      return byLabels && byExpressions;
    };
    const egressOf = (app: string) => {
      const labels = find(objects, 'Deployment', app).spec.template.metadata.labels;
      return policies
        .filter((p) => selects(p, labels) && p.spec.policyTypes.includes('Egress'))
        .map((p) => p.metadata.name)
        .sort();
    };
    const deny = find(objects, 'NetworkPolicy', 'default-deny');
    expect(deny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    expect(egressOf('gateway')).toEqual([
      'default-deny',
      'dns',
      'gateway-webhooks',
      'kafka',
      'otel-collector',
      'postgresql',
    ]);
    for (const app of ['quote-service', 'execution-planner', 'signer-surface'])
      expect(egressOf(app)).toEqual([
        'chain-rpc',
        'default-deny',
        'dns',
        'kafka',
        'otel-collector',
        'postgresql',
      ]);
    expect(egressOf('limit-order-service')).toEqual([
      'default-deny',
      'dns',
      'kafka',
      'otel-collector',
      'postgresql',
    ]);
    // Kafka on the TLS listener the ConfigMap names; RPC on 443 to public addresses only.
    const brokerPort = Number(
      find(objects, 'ConfigMap', 'swapgw-config').data.KAFKA_BROKERS.split(':').pop(),
    );
    expect(find(objects, 'NetworkPolicy', 'kafka').spec.egress[0].ports).toEqual([
      { protocol: 'TCP', port: brokerPort },
    ]);
    const rpc = find(objects, 'NetworkPolicy', 'chain-rpc').spec.egress[0];
    expect(rpc.ports).toEqual([{ protocol: 'TCP', port: 443 }]);
    expect(rpc.to[0].ipBlock.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16']));
    // In: the gateway's API from anywhere, metrics from the monitoring namespace only.
    expect(find(objects, 'NetworkPolicy', 'gateway-api').spec.ingress).toEqual([
      { ports: [{ protocol: 'TCP', port: 3000 }] },
    ]);
    const metrics = find(objects, 'NetworkPolicy', 'metrics-from-monitoring').spec.ingress[0];
    expect(metrics.from).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
    ]);
    expect(metrics.ports.map((p: any) => p.port).sort()).toEqual(
      [...new Set(APPS.map((a) => a.metricsPort))].sort(),
    );
  });
});

describe('deploy/overlays/development', () => {
  const objects: any[] = render('overlays/development');

  it('runs one replica of each app, migrating at start, with no autoscaler or budget', () => {
    for (const { app } of APPS) expect(find(objects, 'Deployment', app).spec.replicas).toBe(1);
    expect(objects.filter((o) => /Autoscaler|ScaledObject|PodDisruptionBudget/.test(o.kind))).toEqual([]);
    expect(find(objects, 'ConfigMap', 'swapgw-config').data.MIGRATE_ON_START).toBe('true');
  });
});

describe('deploy/overlays/production', () => {
  const objects: any[] = render('overlays/production');

  it('leaves migrations to the migrate Job, of the same image', () => {
    expect(find(objects, 'ConfigMap', 'swapgw-config').data.MIGRATE_ON_START).toBe('false');
    const [job] = render('migrate');
    expect(job.kind).toBe('Job');
    expect(job.metadata.namespace).toBe('swapgw');
    const image = find(objects, 'Deployment', 'gateway').spec.template.spec.containers[0].image;
    expect(job.spec.template.spec.containers[0].image).toBe(image);
    expect(job.spec.template.spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
  });

  it.each(APPS)(
    '$app: no replicas field (the autoscaler owns the count), a one-pod disruption budget',
    ({ app }) => {
      const deployment = find(objects, 'Deployment', app);
      expect(deployment.spec.replicas).toBeUndefined();
      for (const container of deployment.spec.template.spec.containers)
        expect(container.resources.requests.cpu).toBeDefined();
      const pdb = find(objects, 'PodDisruptionBudget', app);
      expect(pdb.spec).toEqual({
        maxUnavailable: 1,
        selector: { matchLabels: deployment.spec.selector.matchLabels },
      });
    },
  );

  it('scales the gateway on CPU from 2 to 8 (its reply partitions)', () => {
    const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.metadata.name)).toEqual(['gateway']);
    const [hpa] = hpas;
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'gateway' });
    expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([2, 8]);
    expect(hpa.spec.metrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
      },
    ]);
  });

  it.each(SERVICES)(
    '$app scales with KEDA on its consumer group’s lag on each topic it consumes, and on CPU, from 2 to $maxReplicas',
    ({ app, maxReplicas }) => {
      const scaled = find(objects, 'ScaledObject', app);
      expect(scaled.spec.scaleTargetRef).toEqual({ name: app });
      expect([scaled.spec.minReplicaCount, scaled.spec.maxReplicaCount]).toEqual([2, maxReplicas]);
      const access = TOPIC_ACCESS[app as KafkaApp];
      // The group the app's handlers consume in reads these (reply topics are read by the reply groups).
      const consumed = access.reads.filter((t) => !t.endsWith('.reply') && t !== 'service.heartbeats');
      const kafka = scaled.spec.triggers.filter((t: any) => t.type === 'kafka');
      expect(kafka.map((t: any) => t.metadata.topic).sort()).toEqual(consumed);
      for (const trigger of kafka) {
        // The app's group, or one of its consumer lanes' (`<group>-<lane>`, quote-service's checks).
        expect(access.groups).toContain(trigger.metadata.consumerGroup);
        expect(trigger.metadata.consumerGroup.startsWith(access.groups[0])).toBe(true);
        expect(trigger.metadata.bootstrapServers).toBe(
          find(objects, 'ConfigMap', 'swapgw-config').data.KAFKA_BROKERS,
        );
        expect(trigger.metadata).toMatchObject({
          sasl: 'scram_sha512',
          tls: 'enable',
          allowIdleConsumers: 'false',
        });
        const auth = find(objects, 'TriggerAuthentication', trigger.authenticationRef.name);
        expect(auth.spec.secretTargetRef).toContainEqual({
          parameter: 'password',
          name: kafkaUserOf(app as KafkaApp),
          key: 'password',
        });
        expect(auth.spec.env).toEqual([
          { parameter: 'username', name: 'KAFKA_SASL_USERNAME', containerName: app },
        ]);
      }
      expect(scaled.spec.triggers.filter((t: any) => t.type === 'cpu')).toEqual([
        { type: 'cpu', metricType: 'Utilization', metadata: { value: '70' } },
      ]);
    },
  );
});

describe('docker-compose.yml', () => {
  it('runs Kafka, PostgreSQL, the topic init and the five apps with health checks', () => {
    const [compose] = parseAll('docker-compose.yml');
    const services = compose.services;
    expect(Object.keys(services).sort()).toEqual(
      ['kafka', 'postgres', 'topic-init', 'otel-collector', ...APPS.map((a) => a.app)].sort(),
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
    expect(text).toMatch(/^USER 1000:1000$/m); // the node user, numeric so runAsNonRoot can check it
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
      // Three Node processes each: a second or more apiece on a loaded 2-core CI machine.
      30_000,
    );
  });
});
