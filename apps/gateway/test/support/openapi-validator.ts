import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenAPIObject } from '@nestjs/swagger';

const DOCUMENT_ID = 'https://swapgw.local/openapi.json';
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
 *   openApi.assertResponse('GET', '/api/v1/swap/abc/signing', res.status, res.body);
 *
 * Concrete paths are matched to the document's templates (`/swap/{swapId}/signing`); the
 * `/api/v1` prefix may be left out. An undocumented status or route is a failure.
 */
export class OpenApiValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenAPIObject) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID } as object);
  }

  /** Reads the document the running gateway serves at /api/v1/openapi.json. */
  static async fetch(baseUrl: string): Promise<OpenApiValidator> {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/openapi.json`);
    if (!response.ok) throw new Error(`GET openapi.json answered ${response.status}`);
    return new OpenApiValidator((await response.json()) as OpenAPIObject);
  }

  /** The document's path template for a concrete path, or undefined. */
  templateOf(path: string): string | undefined {
    const pathname = path.split('?')[0];
    const candidates = [pathname, `/api/v1${pathname}`];
    return Object.keys(this.document.paths).find((template) => {
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
      return candidates.some((candidate) => pattern.test(candidate));
    });
  }

  check(method: string, path: string, status: number, body: unknown): OpenApiCheck {
    const template = this.templateOf(path);
    if (!template) return { valid: false, problems: [`no path in the document matches ${path}`] };
    const operation = (this.document.paths[template] as Record<string, { responses?: Record<string, unknown> }>)[
      method.toLowerCase()
    ];
    if (!operation) return { valid: false, problems: [`${method} ${template} is not in the document`] };
    const response = operation.responses?.[String(status)] as { content?: Record<string, { schema?: unknown }> } | undefined;
    if (!response) return { valid: false, problems: [`status ${status} of ${method} ${template} is not documented`] };
    if (!response.content?.['application/json']?.schema) {
      return { valid: false, problems: [`status ${status} of ${method} ${template} declares no JSON schema`] };
    }
    const pointer = ['paths', template, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema']
      .map(escapePointer)
      .join('/');
    const ref = `${DOCUMENT_ID}#/${pointer}`;
    let validate = this.cache.get(ref);
    if (!validate) {
      validate = this.ajv.getSchema(ref);
      if (!validate) return { valid: false, problems: [`could not compile ${ref}`] };
      this.cache.set(ref, validate);
    }
    const valid = validate(body) as boolean;
    return { valid, problems: valid ? [] : (validate.errors ?? []).map(describeError) };
  }

  /** Throws with the problems when the body does not match the documented response. */
  assertResponse(method: string, path: string, status: number, body: unknown): void {
    const result = this.check(method, path, status, body);
    if (!result.valid) {
      throw new Error(`${method} ${path} ${status} does not match the OpenAPI document:\n  ${result.problems.join('\n  ')}`);
    }
  }
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath ? `body${error.instancePath.replace(/\//g, '.')}` : 'body';
  return `${at} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`;
}
