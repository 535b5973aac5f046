// Validates Kubernetes objects against published schemas: the Kubernetes API's own (kubernetes-models,
// generated from the Kubernetes OpenAPI), KEDA's and prometheus-operator's CRDs (@kubernetes-models/keda,
// @kubernetes-models/prometheus-operator), and Strimzi's KafkaTopic and KafkaUser CRDs (the CRD files
// of Strimzi's release, vendored under tools/deploy/schemas/strimzi). Their packages are ES modules
// only, which jest's CommonJS runtime cannot load: tools/deploy/kubernetes-manifests.spec.ts runs this
// file with node instead.
//   node tools/deploy/validate-manifests.mjs < objects.json   (a JSON array of objects)
// Prints a JSON array with one entry per object: { id, errors } (errors empty when valid). An object
// of an apiVersion/kind no schema here knows is an error too (a typo there must not pass unchecked).
// Strimzi's schemas are applied as the API server's strict field validation does (kubectl's default):
// a field the CRD does not declare is an error, where the object does not preserve unknown fields.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as keda from '@kubernetes-models/keda/keda.sh/v1alpha1';
import * as monitoring from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import Ajv from 'ajv';
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as batch from 'kubernetes-models/batch/v1';
import * as networking from 'kubernetes-models/networking.k8s.io/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as rbac from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import * as core from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The models (classes with a validate()) of each apiVersion deploy/ uses; add one when it starts using another. */
const MODELS = {
  v1: core,
  'apps/v1': apps,
  'batch/v1': batch,
  'policy/v1': policy,
  'autoscaling/v2': autoscaling,
  'networking.k8s.io/v1': networking,
  'rbac.authorization.k8s.io/v1': rbac,
  'keda.sh/v1alpha1': keda,
  'monitoring.coreos.com/v1': monitoring,
};

/** A CRD's openAPIV3Schema made strict: `additionalProperties: false` wherever properties are declared. */
function strict(schema) {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-kubernetes-') || key === 'description') continue;
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strict(v)]))
        : strict(value);
  }
  if (
    schema.properties &&
    schema.additionalProperties === undefined &&
    !schema['x-kubernetes-preserve-unknown-fields']
  )
    out.additionalProperties = false;
  return out;
}

function crdValidators() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validators = new Map();
  const dir = path.join(here, 'schemas', 'strimzi');
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const crd = parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8'))[0].toJSON();
    for (const version of crd.spec.versions.filter((v) => v.served)) {
      const schema = strict(version.schema.openAPIV3Schema);
      // metadata is `type: object` in a CRD: the API server checks it as ObjectMeta, name required here.
      schema.properties.metadata = { type: 'object', required: ['name'] };
      schema.required = [...new Set([...(schema.required ?? []), 'apiVersion', 'kind', 'metadata', 'spec'])];
      validators.set(`${crd.spec.group}/${version.name}/${crd.spec.names.kind}`, ajv.compile(schema));
    }
  }
  return validators;
}

export async function validateObjects(objects) {
  const crds = crdValidators();
  const results = [];
  for (const object of objects) {
    const id = `${object?.apiVersion}/${object?.kind}/${object?.metadata?.name}`;
    const crd = crds.get(`${object?.apiVersion}/${object?.kind}`);
    if (crd) {
      const ok = crd(object);
      results.push({
        id,
        errors: ok
          ? []
          : crd.errors.map(
              (e) =>
                `${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? `: ${e.params.additionalProperty}` : ''}`,
            ),
      });
      continue;
    }
    const models = Object.hasOwn(MODELS, object?.apiVersion) ? MODELS[object.apiVersion] : undefined;
    const Model = models && Object.hasOwn(models, object.kind) ? models[object.kind] : undefined;
    if (!Model) {
      results.push({ id, errors: [`no schema for ${object?.apiVersion} ${object?.kind}`] });
      continue;
    }
    try {
      new Model(object).validate();
      results.push({ id, errors: [] });
    } catch (error) {
      results.push({ id, errors: String(error.message).split(/,\s*(?=data)/) });
    }
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const input = fs.readFileSync(0, 'utf8');
  process.stdout.write(JSON.stringify(await validateObjects(JSON.parse(input))));
}
