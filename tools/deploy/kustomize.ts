import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * A renderer for the subset of kustomize (kustomize.config.k8s.io/v1beta1 Kustomization) that deploy/
 * uses, so CI renders every overlay without the kustomize binary (no download from GitHub there):
 * `resources` (files and directories with a kustomization.yaml), `namespace`, `images` (newName,
 * newTag, digest), `replicas`, `patches` in JSON 6902 form with a `target` (kind, and optionally
 * name), `labels` (pairs on metadata only) and `configMapGenerator` (files, with
 * `disableNameSuffixHash`). Anything else in a kustomization is an error, never silently ignored: a feature the tree
 * starts to use has to be added here (and to tools/deploy/kustomize.spec.ts, whose expected output
 * was rendered by kustomize v5.5.0 itself). `kubectl apply -k` stays the way to apply.
 */
export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
} & Record<string, any>;

const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'images',
  'replicas',
  'patches',
  'labels',
  'configMapGenerator',
]);

/** Kinds that live outside namespaces: kustomize's namespace field leaves them alone. */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'PriorityClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

/** The YAML documents of a file, as plain objects (empty documents dropped); a YAML error throws. */
export function readManifests(file: string): Manifest[] {
  const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'), { merge: true });
  for (const doc of docs)
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
  return docs.map((d) => d.toJSON()).filter((d) => d !== null && d !== undefined);
}

/** Renders the kustomization in `dir` (a directory holding kustomization.yaml). */
export function renderKustomization(dir: string): Manifest[] {
  const file = path.join(dir, 'kustomization.yaml');
  const [k] = readManifests(file);
  if (k?.kind !== 'Kustomization') throw new Error(`${file} is not a Kustomization`);
  const unsupported = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0)
    throw new Error(`${file}: ${unsupported.join(', ')} not supported by tools/deploy/kustomize.ts`);

  let objects: Manifest[] = [];
  for (const resource of k.resources ?? []) {
    const target = path.resolve(dir, resource);
    if (!fs.existsSync(target)) throw new Error(`${file}: resource ${resource} does not exist`);
    objects.push(
      ...(fs.statSync(target).isDirectory() ? renderKustomization(target) : readManifests(target)),
    );
  }
  for (const generator of k.configMapGenerator ?? []) objects.push(generatedConfigMap(generator, dir, file));
  objects = structuredClone(objects);
  const ids = objects.map(idOf);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new Error(`${file}: ${duplicate} is declared twice`);

  for (const patch of k.patches ?? []) applyPatch(objects, patch, file);
  // As kustomize does: namespaced objects move into the namespace, a Namespace object is renamed to it.
  if (k.namespace)
    for (const o of objects)
      if (o.kind === 'Namespace') o.metadata.name = k.namespace;
      else if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  for (const label of k.labels ?? []) addLabels(objects, label, file);
  for (const image of k.images ?? []) setImage(objects, image);
  for (const { name, count } of k.replicas ?? []) {
    const targets = objects.filter((o) => o.metadata.name === name && REPLICATED.has(o.kind));
    if (targets.length === 0) throw new Error(`${file}: replicas for ${name}, which is not a workload here`);
    for (const o of targets) o.spec.replicas = count;
  }
  return sortLegacy(objects);
}

// kustomize's default ("legacy") output order: these kinds first and last, in this order, the others
// between them by group, version and kind; then by namespace and name.
const ORDER_FIRST = [
  'Namespace',
  'ResourceQuota',
  'StorageClass',
  'CustomResourceDefinition',
  'ServiceAccount',
  'PodSecurityPolicy',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'ConfigMap',
  'Secret',
  'Endpoints',
  'Service',
  'LimitRange',
  'PriorityClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'Deployment',
  'StatefulSet',
  'CronJob',
  'PodDisruptionBudget',
];
const ORDER_LAST = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

function sortLegacy(objects: Manifest[]): Manifest[] {
  const rank = (o: Manifest) => {
    const first = ORDER_FIRST.indexOf(o.kind);
    if (first >= 0) return first;
    const last = ORDER_LAST.indexOf(o.kind);
    return last >= 0 ? ORDER_FIRST.length + 1 + last : ORDER_FIRST.length;
  };
  const gvk = (o: Manifest) => {
    const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
    return `${group}_${version}_${o.kind}`;
  };
  const key = (o: Manifest) => `${o.metadata.namespace ?? ''}|${o.metadata.name}`;
  return [...objects].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (rank(a) === ORDER_FIRST.length ? gvk(a).localeCompare(gvk(b)) : 0) ||
      key(a).localeCompare(key(b)),
  );
}

const REPLICATED = new Set(['Deployment', 'StatefulSet', 'ReplicaSet']);

export const idOf = (o: Manifest): string =>
  `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** A YAML mapping, as parsed: what every entry of a kustomization is. */
type YamlMap = Record<string, unknown>;

const isYamlMap = (value: unknown): value is YamlMap =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON 6902 operation as a patch lists it. */
type PatchOperation = { op: string; path: string; value?: unknown };

function applyPatch(objects: Manifest[], patch: unknown, file: string): void {
  if (!isYamlMap(patch) || typeof patch.patch !== 'string' || !isYamlMap(patch.target) || !patch.target.kind)
    throw new Error(`${file}: only inline JSON 6902 patches with a target kind are supported`);
  const { target: selector } = patch;
  const ops = readYamlText(patch.patch);
  if (!Array.isArray(ops)) throw new Error(`${file}: a patch must be a JSON 6902 list of operations`);
  const operations = ops.map((op) => patchOperation(op, file));
  const targets = objects.filter(
    (o) => o.kind === selector.kind && (selector.name === undefined || o.metadata.name === selector.name),
  );
  if (targets.length === 0)
    throw new Error(`${file}: patch target ${JSON.stringify(selector)} matches nothing`);
  for (const target of targets) for (const op of operations) applyOperation(target, op, file);
}

function patchOperation(op: unknown, file: string): PatchOperation {
  if (!isYamlMap(op) || typeof op.op !== 'string' || typeof op.path !== 'string')
    throw new Error(`${file}: a patch operation needs an op and a path, not ${JSON.stringify(op)}`);
  return { op: op.op, path: op.path, value: op.value };
}

function readYamlText(text: string): unknown {
  const [doc] = parseAllDocuments(text);
  if (doc.errors.length > 0) throw new Error(doc.errors.map((e) => e.message).join('; '));
  return doc.toJSON();
}

/** JSON 6902 add / replace / remove on a JSON pointer (RFC 6901 escapes, `-` appends). */
function applyOperation(target: Manifest, op: PatchOperation, file: string): void {
  const keys = op.path
    .split('/')
    .slice(1)
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop();
  if (last === undefined) throw new Error(`${file}: patch path ${op.path} names no field`);
  let parent: unknown = target;
  for (const key of keys) {
    parent = Array.isArray(parent) ? parent[Number(key)] : isYamlMap(parent) ? parent[key] : undefined;
    if (parent === undefined) throw new Error(`${file}: patch path ${op.path} does not exist`);
  }
  if (!Array.isArray(parent) && !isYamlMap(parent))
    throw new Error(`${file}: patch path ${op.path} goes through a value that has no fields`);
  const exists = Array.isArray(parent) ? last === '-' || Number(last) < parent.length : last in parent;
  switch (op.op) {
    case 'add':
      if (Array.isArray(parent)) parent.splice(last === '-' ? parent.length : Number(last), 0, op.value);
      else parent[last] = op.value;
      return;
    case 'replace':
      if (!exists) throw new Error(`${file}: patch replaces ${op.path}, which does not exist`);
      if (Array.isArray(parent)) parent[Number(last)] = op.value;
      else parent[last] = op.value;
      return;
    case 'remove':
      if (!exists) throw new Error(`${file}: patch removes ${op.path}, which does not exist`);
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
      return;
    default:
      throw new Error(`${file}: patch operation ${op.op} not supported`);
  }
}

/** kustomize's images transformer: every container image named `name` (any tag) gets the new name/tag/digest. */
function setImage(
  objects: Manifest[],
  image: { name: string; newName?: string; newTag?: string; digest?: string },
) {
  const rewrite = (current: string): string => {
    const at = current.indexOf('@');
    const base = at >= 0 ? current.slice(0, at) : current;
    const colon = base.lastIndexOf(':');
    const hasTag = colon > base.lastIndexOf('/');
    const name = hasTag ? base.slice(0, colon) : base;
    if (name !== image.name) return current;
    const tag = hasTag ? base.slice(colon + 1) : undefined;
    const newName = image.newName ?? name;
    if (image.digest) return `${newName}@${image.digest}`;
    const newTag = image.newTag ?? tag;
    return newTag ? `${newName}:${newTag}` : newName;
  };
  for (const o of objects) {
    const pod = o.kind === 'CronJob' ? o.spec?.jobTemplate?.spec?.template?.spec : o.spec?.template?.spec;
    for (const container of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])])
      container.image = rewrite(container.image);
  }
}

/** A configMapGenerator entry: one key per file (its base name), as kustomize writes it. */
function generatedConfigMap(generator: unknown, dir: string, file: string): Manifest {
  if (!isYamlMap(generator) || typeof generator.name !== 'string')
    throw new Error(`${file}: a configMapGenerator entry needs a name`);
  const known = new Set(['name', 'files', 'options']);
  const unknown = Object.keys(generator).filter((key) => !known.has(key));
  if (unknown.length > 0) throw new Error(`${file}: configMapGenerator ${unknown.join(', ')} not supported`);
  const options = isYamlMap(generator.options) ? generator.options : {};
  // kustomize appends a hash of the content to the name unless told not to; this renderer does not hash.
  if (options.disableNameSuffixHash !== true)
    throw new Error(
      `${file}: configMapGenerator ${generator.name} needs options.disableNameSuffixHash: true here`,
    );
  const files = generator.files ?? [];
  if (!Array.isArray(files) || !files.every((entry) => typeof entry === 'string'))
    throw new Error(`${file}: configMapGenerator ${generator.name} files must be a list of paths`);
  const data: Record<string, string> = {};
  for (const entry of files) {
    if (entry.includes('=')) throw new Error(`${file}: configMapGenerator key=path files are not supported`);
    data[path.basename(entry)] = fs.readFileSync(path.resolve(dir, entry), 'utf8');
  }
  const labels = options.labels
    ? stringMap(options.labels, `configMapGenerator ${generator.name} labels`, file)
    : undefined;
  const annotations = options.annotations
    ? stringMap(options.annotations, `configMapGenerator ${generator.name} annotations`, file)
    : undefined;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: generator.name,
      ...(labels ? { labels } : {}),
      ...(annotations ? { annotations } : {}),
    },
    data,
  };
}

/** A `labels` entry: its pairs on every object's metadata (selectors and pod templates untouched). */
function addLabels(objects: Manifest[], label: unknown, file: string): void {
  if (!isYamlMap(label)) throw new Error(`${file}: a labels entry must be a mapping`);
  if (label.includeSelectors || label.includeTemplates)
    throw new Error(`${file}: labels with includeSelectors or includeTemplates are not supported`);
  const pairs = label.pairs === undefined ? {} : stringMap(label.pairs, 'labels pairs', file);
  for (const o of objects) o.metadata.labels = { ...(o.metadata.labels ?? {}), ...pairs };
}

/** Labels or annotations: a mapping of strings, as Kubernetes takes them. */
function stringMap(value: unknown, what: string, file: string): Record<string, string> {
  if (!isYamlMap(value)) throw new Error(`${file}: ${what} must be a mapping`);
  const entries = Object.entries(value);
  const strings = entries.filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  if (strings.length !== entries.length) throw new Error(`${file}: ${what} must all be strings`);
  return Object.fromEntries(strings);
}
