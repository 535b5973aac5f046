import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenAPIObject } from '@nestjs/swagger';

const DOCUMENT_ID = 'https://swapgw.local/openapi.json';
/** Keywords of the OpenAPI 3.1 schema vocabulary that validate nothing. */
const OPENAPI_ANNOTATIONS = ['example', 'discriminator', 'xml', 'externalDocs'];
const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

export interface OpenApiCheck {
  valid: boolean;
  /** Why not, readable: "data.meta.requestId must be string" */
  problems: string[];
}

/**
 * Validates response bodies against the gateway's own OpenAPI document, so an e2e test can say
 * "this response is what the document promises" for any route and status:
 *
 *   const openApi = await OpenApiValidator.fetch(baseUrl);
 *   openApi.assertResponse('GET', '/swap/abc/signing', res.status, res.body);
 *
 * Concrete paths are matched to the document's templates (`/swap/{swapId}/signing`), which are
 * relative to its server (`/api/v1`, which a path may include). Bodies are checked with strict JSON
 * Schema 2020-12 (Ajv2020). An undocumented status or route is a failure.
 */
export class OpenApiValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenAPIObject) {
    // Strict JSON Schema 2020-12: an unknown keyword in the document is an error, not ignored. The
    // OpenAPI 3.1 vocabulary's annotations (example, discriminator, ...) are declared as such.
    this.ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    for (const keyword of OPENAPI_ANNOTATIONS) this.ajv.addKeyword({ keyword });
    addFormats(this.ajv);
    // The component schemas as one 2020-12 schema of $defs: the document itself is not a schema
    // (strict mode refuses `openapi`, `paths`, ...), and its refs point into components.
    this.ajv.addSchema({ $id: DOCUMENT_ID, $defs: withDefsRefs(document.components?.schemas ?? {}) });
  }

  /** Reads the document the running gateway serves at /api/v1/openapi.json. */
  static async fetch(baseUrl: string): Promise<OpenApiValidator> {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/openapi.json`);
    if (!response.ok) throw new Error(`GET openapi.json answered ${response.status}`);
    return new OpenApiValidator((await response.json()) as OpenAPIObject);
  }

  /** The path of the document's one server (`/api/v1`): templates are relative to it. */
  get basePath(): string {
    const url = (this.document.servers ?? [])[0]?.url ?? '';
    return new URL(url, 'http://host').pathname.replace(/\/+$/, '');
  }

  /** The document's path template for a concrete path (with or without the server's base path), or undefined. */
  templateOf(path: string): string | undefined {
    const pathname = path.split('?')[0];
    const base = this.basePath;
    const candidates = base && pathname.startsWith(`${base}/`) ? [pathname.slice(base.length)] : [pathname];
    return Object.keys(this.document.paths).find((template) => {
      const pattern = new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`,
      );
      return candidates.some((candidate) => pattern.test(candidate));
    });
  }

  check(method: string, path: string, status: number, body: unknown): OpenApiCheck {
    const template = this.templateOf(path);
    if (!template) return { valid: false, problems: [`no path in the document matches ${path}`] };
    const operation = (
      this.document.paths[template] as Record<string, { responses?: Record<string, unknown> }>
    )[method.toLowerCase()];
    if (!operation) return { valid: false, problems: [`${method} ${template} is not in the document`] };
    const response = operation.responses?.[String(status)] as
      { content?: Record<string, { schema?: unknown }> } | undefined;
    if (!response)
      return { valid: false, problems: [`status ${status} of ${method} ${template} is not documented`] };
    if (!response.content?.['application/json']?.schema) {
      return {
        valid: false,
        problems: [`status ${status} of ${method} ${template} declares no JSON schema`],
      };
    }
    const key = `${method.toLowerCase()} ${template} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      try {
        validate = this.ajv.compile(withDefsRefs(response.content['application/json'].schema) as object);
      } catch (error) {
        return {
          valid: false,
          problems: [`could not compile the schema of ${key}: ${(error as Error).message}`],
        };
      }
      this.cache.set(key, validate);
    }
    const valid = validate(body) as boolean;
    return { valid, problems: valid ? [] : (validate.errors ?? []).map(describeError) };
  }

  /** Throws with the problems when the body does not match the documented response. */
  assertResponse(method: string, path: string, status: number, body: unknown): void {
    const result = this.check(method, path, status, body);
    if (!result.valid) {
      throw new Error(
        `${method} ${path} ${status} does not match the OpenAPI document:\n  ${result.problems.join('\n  ')}`,
      );
    }
  }
}

const COMPONENT_REF = '#/components/schemas/';

/** A copy of `node` whose component refs point into the $defs of the document's schema. */
function withDefsRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withDefsRefs);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_REF)
        ? [key, `${DOCUMENT_ID}#/$defs/${escapePointer(value.slice(COMPONENT_REF.length))}`]
        : [key, withDefsRefs(value)],
    ),
  );
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath ? `body${error.instancePath.replace(/\//g, '.')}` : 'body';
  return `${at} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`;
}
