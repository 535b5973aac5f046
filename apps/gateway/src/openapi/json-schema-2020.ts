/**
 * Turns what @nestjs/swagger writes in OpenAPI 3.0 terms into OpenAPI 3.1 (JSON Schema 2020-12):
 * `nullable` is not a 3.1 keyword (a strict validator ignores it and refuses the null), so
 * `{ type: T, nullable: true }` becomes `{ type: [T, 'null'] }`, a nullable `$ref` or composition
 * becomes `anyOf: [it, { type: 'null' }]` and a nullable `enum` lists null. Pure; walks any node.
 */
export function toJsonSchema2020(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema2020);
  if (node === null || typeof node !== 'object') return node;
  const input = node as Record<string, unknown>;
  const output: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === 'nullable') continue;
    output[key] = toJsonSchema2020(value);
  }
  if (input.nullable !== true) return output;
  return nullableOf(output);
}

function nullableOf(schema: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  if (typeof schema.type === 'string') {
    if (schema.type !== 'null') schema.type = [schema.type, 'null'];
    return schema;
  }
  if (Array.isArray(schema.type)) {
    if (!schema.type.includes('null')) schema.type = [...(schema.type as string[]), 'null'];
    return schema;
  }
  // A $ref or a composition: its siblings (description, ...) stay next to the anyOf.
  const { description, title, default: defaultValue, ...rest } = schema;
  const annotations = Object.fromEntries(
    Object.entries({ description, title, default: defaultValue }).filter(([, value]) => value !== undefined),
  );
  return { ...annotations, anyOf: [rest, { type: 'null' }] };
}

type Schema = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/** Names of the component schemas `node` refers to, directly or through other components. */
export function referencedSchemas(
  node: unknown,
  schemas: Record<string, Schema>,
  into = new Set<string>(),
): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) referencedSchemas(item, schemas, into);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) {
        const name = value.slice(REF_PREFIX.length);
        if (!into.has(name)) {
          into.add(name);
          referencedSchemas(schemas[name], schemas, into);
        }
      } else {
        referencedSchemas(value, schemas, into);
      }
    }
  }
  return into;
}

/**
 * A request property with a default is optional to send, but client generators type a property
 * with a `default` as always present (openapi-typescript's defaultNonNullable, on by default), so
 * a client would have to send it. In schemas only requests use, the default moves into the
 * description ("Default when omitted: 50"); responses and parameters keep `default`.
 */
export function describeRequestDefaults(document: {
  paths: Record<string, unknown>;
  components?: { schemas?: Record<string, Schema> };
}): void {
  const schemas = document.components?.schemas ?? {};
  const inRequests = new Set<string>();
  const inResponses = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Record<string, Schema>)) {
      if (operation === null || typeof operation !== 'object') continue;
      referencedSchemas(operation.requestBody, schemas, inRequests);
      referencedSchemas(operation.responses, schemas, inResponses);
    }
  }
  for (const name of inRequests) {
    if (inResponses.has(name)) continue;
    const properties = schemas[name]?.properties as Record<string, Schema> | undefined;
    for (const property of Object.values(properties ?? {})) {
      if (!('default' in property)) continue;
      const note = `Default when omitted: ${JSON.stringify(property.default)}.`;
      const own = typeof property.description === 'string' ? property.description.trim() : '';
      property.description = own ? `${own}${/[.!?)]$/.test(own) ? '' : '.'} ${note}` : note;
      delete property.default;
    }
  }
}
