import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Manifest, readManifests, renderKustomization } from './kustomize';

const root = path.resolve(__dirname, '..', '..');
const deploy = (...parts: string[]) => path.join(root, 'deploy', ...parts);

/** What `kubectl apply -k` is run on: the overlays, Kafka's side, the migrate Job. */
export const KUSTOMIZATIONS = [
  'overlays/development',
  'overlays/production',
  'kafka',
  'migrate',
  'monitoring',
];
/** YAML under deploy/ that is not Kubernetes objects: the OpenTelemetry Collector's config (tools/deploy/otel-collector.spec.ts checks it). */
const NOT_KUBERNETES = [path.join('otel', 'collector.yaml')];

/** Runs tools/deploy/validate-manifests.mjs (ES modules: outside jest's runtime) on `objects`. */
function validate(objects: unknown[]): { id: string; errors: string[] }[] {
  const run = spawnSync(process.execPath, [path.join(__dirname, 'validate-manifests.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
    cwd: root,
  });
  if (run.status !== 0) throw new Error(`validate-manifests.mjs failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
const errorsOf = (objects: unknown[]) => validate(objects).filter((r) => r.errors.length > 0);

/** Validates every case of a describe block in one run (each run loads the schemas: about a second). */
function batchValidator(cases: Record<string, unknown>) {
  let results: Record<string, string[]> = {};
  beforeAll(() => {
    const names = Object.keys(cases);
    const run = validate(names.map((name) => cases[name]));
    results = Object.fromEntries(names.map((name, i) => [name, run[i].errors]));
  });
  return (name: string) => results[name];
}

/** YAML files under deploy/ that no kustomization lists (examples, and any added later, like monitoring). */
function yamlFilesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return yamlFilesUnder(full);
    return /\.ya?ml$/.test(entry.name) && entry.name !== 'kustomization.yaml' ? [full] : [];
  });
}

describe('tools/deploy/kustomize.ts (the kustomize subset CI renders with)', () => {
  const fixture = path.join(__dirname, 'fixtures', 'kustomize');

  it('renders the fixture exactly as kustomize v5.5.0 did (namespace, images, replicas, JSON 6902 patches, order)', () => {
    expect(renderKustomization(path.join(fixture, 'overlay'))).toEqual(
      readManifests(path.join(fixture, 'expected.yaml')),
    );
  });

  it('renders labels and a configMapGenerator exactly as kustomize v5.5.0 did', () => {
    expect(renderKustomization(path.join(fixture, 'generated'))).toEqual(
      readManifests(path.join(fixture, 'expected-generated.yaml')),
    );
  });

  it('refuses a kustomization field it does not implement instead of ignoring it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kustomize-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ncommonLabels:\n  a: b\nresources: []\n',
      );
      expect(() => renderKustomization(dir)).toThrow(/commonLabels not supported/);
      fs.writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [missing.yaml]\n',
      );
      expect(() => renderKustomization(dir)).toThrow(/missing.yaml does not exist/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names what is malformed in a patch operation or in labels', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kustomize-'));
    const header =
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [app.yaml]\n';
    try {
      fs.writeFileSync(
        path.join(dir, 'app.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  a: b\n',
      );
      fs.writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        `${header}patches:\n  - target: { kind: ConfigMap }\n    patch: '[{"op": "remove"}]'\n`,
      );
      expect(() => renderKustomization(dir)).toThrow(/a patch operation needs an op and a path/);
      fs.writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        `${header}patches:\n  - target: { kind: ConfigMap }\n    patch: '[{"op": "add", "path": "/data/a/b", "value": 1}]'\n`,
      );
      expect(() => renderKustomization(dir)).toThrow(/\/data\/a\/b goes through a value that has no fields/);
      fs.writeFileSync(path.join(dir, 'kustomization.yaml'), `${header}labels:\n  - pairs: { version: 2 }\n`);
      expect(() => renderKustomization(dir)).toThrow(/labels pairs must all be strings/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deploy/ against the Kubernetes and CRD schemas', () => {
  // One validator run for all of them (each run loads the schemas: about a second).
  let results: Map<string, { id: string; errors: string[] }[]>;
  beforeAll(() => {
    const rendered = KUSTOMIZATIONS.map((dir) => renderKustomization(deploy(dir)));
    const all = validate(rendered.flat());
    results = new Map(KUSTOMIZATIONS.map((dir, i) => [dir, all.splice(0, rendered[i].length)]));
  });

  it.each(KUSTOMIZATIONS)('deploy/%s renders, and every object is valid', (dir) => {
    expect(results.get(dir)!.length).toBeGreaterThan(0);
    expect(results.get(dir)!.filter((r) => r.errors.length > 0)).toEqual([]);
  });

  it('every other manifest under deploy/ is valid too (examples, monitoring rules)', () => {
    const listed = new Set(
      KUSTOMIZATIONS.flatMap((dir) => renderKustomization(deploy(dir))).map(
        (o) => `${o.kind}/${o.metadata.name}`,
      ),
    );
    const files = yamlFilesUnder(deploy()).filter(
      (file) =>
        !file.includes(`${path.sep}overlays${path.sep}`) &&
        !NOT_KUBERNETES.some((name) => file.endsWith(name)),
    );
    const others = files
      .flatMap((file) => readManifests(file))
      .filter((o: Manifest) => !listed.has(`${o.kind}/${o.metadata.name}`));
    expect(others.map((o) => o.kind)).toEqual(expect.arrayContaining(['Secret']));
    expect(errorsOf(others)).toEqual([]);
  });

  describe('catches real mistakes', () => {
    const kafkaUser = (acl: object) => ({
      apiVersion: 'kafka.strimzi.io/v1',
      kind: 'KafkaUser',
      metadata: { name: 'swapgw-gateway' },
      spec: { authentication: { type: 'scram-sha-512' }, authorization: { type: 'simple', acls: [acl] } },
    });
    const deployment = (container: object) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'gateway' },
      spec: {
        selector: { matchLabels: { app: 'gateway' } },
        template: { metadata: { labels: { app: 'gateway' } }, spec: { containers: [container] } },
      },
    });
    const topic = (apiVersion: string, partitions: number) => ({
      apiVersion,
      kind: 'KafkaTopic',
      metadata: { name: 'swap.events' },
      spec: { partitions, replicas: 3 },
    });
    const errors = batchValidator({
      validUser: kafkaUser({ resource: { type: 'topic', name: 'swap.events' }, operations: ['Read'] }),
      singularOperation: kafkaUser({ resource: { type: 'topic', name: 'swap.events' }, operation: 'Read' }),
      unknownNames: kafkaUser({ resource: { type: 'topics', name: 'a' }, operations: ['Consume'] }),
      validTopic: topic('kafka.strimzi.io/v1', 6),
      v1beta2Topic: topic('kafka.strimzi.io/v1beta2', 6),
      negativePartitions: topic('kafka.strimzi.io/v1', -1),
      validDeployment: deployment({ name: 'gateway', image: 'swapgw/app:0.1.0' }),
      textPort: deployment({ name: 'gateway', image: 'x', ports: [{ containerPort: '3000' }] }),
      unnamedContainer: deployment({ image: 'x' }),
      untargetedScaledObject: {
        apiVersion: 'keda.sh/v1alpha1',
        kind: 'ScaledObject',
        metadata: { name: 'quote-service' },
        spec: { triggers: [{ type: 'cpu', metadata: { value: '70' } }] },
      },
      misspelledKind: { apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'x' } },
    });

    it('a KafkaUser ACL with v1beta2’s `operation` (v1 has `operations`, a list)', () => {
      expect(errors('validUser')).toEqual([]);
      expect(errors('singularOperation')).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/must have required property 'operations'/),
          expect.stringMatching(/additional properties: operation/),
        ]),
      );
    });

    it('a KafkaUser operation or resource type Strimzi does not know', () => {
      expect(errors('unknownNames').join('\n')).toMatch(
        /resource\/type must be equal to one of the allowed values/,
      );
      expect(errors('unknownNames').join('\n')).toMatch(
        /operations\/0 must be equal to one of the allowed values/,
      );
    });

    it('a KafkaTopic of the removed v1beta2 API, or with a negative partition count', () => {
      expect(errors('validTopic')).toEqual([]);
      expect(errors('v1beta2Topic')).toEqual(['no schema for kafka.strimzi.io/v1beta2 KafkaTopic']);
      expect(errors('negativePartitions').join()).toMatch(/partitions must be >= 1/);
    });

    it('a Deployment with a port given as text, or a container without a name', () => {
      expect(errors('validDeployment')).toEqual([]);
      expect(errors('textPort').join()).toMatch(/containerPort must be integer/);
      expect(errors('unnamedContainer').join()).toMatch(/must have required property name$/);
    });

    it('a KEDA ScaledObject without its target, and a kind no schema knows', () => {
      expect(errors('untargetedScaledObject').join()).toMatch(/must have required property scaleTargetRef/);
      expect(errors('misspelledKind')).toEqual(['no schema for apps/v1 Deploymnet']);
    });
  });
});
