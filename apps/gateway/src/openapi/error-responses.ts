import { ErrorCatalog, ErrorCode, ErrorCodes } from '@swapgw/contracts';

/** Operation extension in which @ApiErrorResponses(...codes) records the codes a route raises. */
export const ERROR_CODES_EXTENSION = 'x-error-codes';
/** Operation extension of @PublicRoute(): no API key, no rate limit. */
export const PUBLIC_OPERATION_EXTENSION = 'x-public';

export const API_ERROR_SCHEMA_REF = '#/components/schemas/ApiErrorDto';

/** What a status stands for when a route lists it without a code (@ApiErrorResponses(404)). */
export const GENERIC_ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request or parameters',
  401: 'Missing or invalid API key',
  403: 'Caller is not the owner',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal error, logged with the request id',
  502: 'Upstream unavailable or failed',
  503: 'A dependency is unavailable or did not answer in time',
};
const GENERIC = new Set(Object.values(GENERIC_ERROR_DESCRIPTIONS));

/** What of an operation decides which errors the HTTP shell itself can answer on it. */
export interface OperationTraits {
  authenticated: boolean;
  /** Query parameters or a body: the validation pipe can refuse them. */
  validatesInput: boolean;
  hasBody: boolean;
  idempotency: 'required' | 'optional' | 'none';
}

interface ParameterLike {
  in?: string;
  name?: string;
  required?: boolean;
}

export interface OperationLike {
  parameters?: ParameterLike[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  [extension: string]: unknown;
}

export function traitsOf(operation: OperationLike): OperationTraits {
  const parameters = operation.parameters ?? [];
  const idempotencyHeader = parameters.find(
    (p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key',
  );
  return {
    authenticated: operation[PUBLIC_OPERATION_EXTENSION] !== true,
    // Query parameters come from a validated @Query() DTO; a path parameter bound as a plain string
    // (`@Param('swapId')`) is not validated: a route that validates one declares VALIDATION_FAILED.
    validatesInput: operation.requestBody !== undefined || parameters.some((p) => p.in === 'query'),
    hasBody: operation.requestBody !== undefined,
    idempotency: idempotencyHeader ? (idempotencyHeader.required ? 'required' : 'optional') : 'none',
  };
}

/**
 * The codes the shell can answer on any operation with these traits, whatever its handler does:
 * the API key guard (UNAUTHORIZED; keys are read from PostgreSQL), the rate limit guard, the
 * validation pipe, the body parser, the idempotency interceptor (its records are in PostgreSQL)
 * and the exception filter's last resort.
 */
export function crossCuttingErrorCodes(traits: OperationTraits): ErrorCode[] {
  const codes: ErrorCode[] = [ErrorCodes.INTERNAL_ERROR];
  if (traits.authenticated)
    codes.push(ErrorCodes.UNAUTHORIZED, ErrorCodes.RATE_LIMITED, ErrorCodes.PERSISTENCE_UNAVAILABLE);
  if (traits.validatesInput) codes.push(ErrorCodes.VALIDATION_FAILED);
  if (traits.hasBody)
    codes.push(ErrorCodes.MALFORMED_JSON, ErrorCodes.UNSUPPORTED_MEDIA_TYPE, ErrorCodes.PAYLOAD_TOO_LARGE);
  if (traits.idempotency !== 'none') {
    codes.push(
      ErrorCodes.IDEMPOTENCY_KEY_INVALID,
      ErrorCodes.IDEMPOTENCY_CONFLICT,
      ErrorCodes.IDEMPOTENCY_IN_PROGRESS,
      ErrorCodes.PERSISTENCE_UNAVAILABLE,
    );
  }
  if (traits.idempotency === 'required') codes.push(ErrorCodes.IDEMPOTENCY_KEY_REQUIRED);
  return codes;
}

const CATALOG_ORDER = Object.keys(ErrorCatalog) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ErrorCatalog, value);
}

/** Declared ∪ cross-cutting codes of an operation, without repeats, in catalog order. */
export function operationErrorCodes(operation: OperationLike): ErrorCode[] {
  const declared = operation[ERROR_CODES_EXTENSION];
  if (declared !== undefined && !(Array.isArray(declared) && declared.every(isErrorCode))) {
    throw new Error(
      `${ERROR_CODES_EXTENSION} must list error catalog codes, got ${JSON.stringify(declared)}`,
    );
  }
  const all = new Set<ErrorCode>([...(declared ?? []), ...crossCuttingErrorCodes(traitsOf(operation))]);
  return CATALOG_ORDER.filter((code) => all.has(code));
}

export interface ErrorResponseObject {
  description: string;
  content: { 'application/json': { schema: Record<string, unknown> } };
}

/**
 * One response per HTTP status of `codes`, each the ApiError body whose `error.code` is one of the
 * codes of that status (the catalog's code → status mapping), described by the catalog.
 * `notes` (by status) are the route's own words, kept before the list of codes.
 */
export function errorResponsesFor(
  codes: readonly ErrorCode[],
  notes: Record<string, string> = {},
): Record<string, ErrorResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ErrorCatalog[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ErrorResponseObject> = {};
  for (const [status, statusCodes] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    const list = statusCodes.map((code) => `\`${code}\`: ${ErrorCatalog[code].description}`).join('\n- ');
    const note = notes[String(status)];
    responses[String(status)] = {
      description: `${note ? `${note}\n\n` : ''}Error codes:\n- ${list}`,
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: API_ERROR_SCHEMA_REF },
              {
                type: 'object',
                properties: {
                  error: { type: 'object', properties: { code: { type: 'string', enum: statusCodes } } },
                },
              },
            ],
          },
        },
      },
    };
  }
  return responses;
}

/**
 * Replaces the error responses of an operation by the ones its codes derive (keeping a
 * hand-written description as the note of its status). A status documented by hand without any
 * code stays, with the ApiError body. The extension then lists every code of the operation
 * (declared and cross-cutting), for clients and for the OpenAPI e2e test.
 */
export function deriveOperationErrors(operation: OperationLike): void {
  const codes = operationErrorCodes(operation);
  const responses = (operation.responses ??= {}) as Record<
    string,
    { description?: string; content?: unknown }
  >;
  const notes: Record<string, string> = {};
  for (const [status, response] of Object.entries(responses)) {
    const own =
      response.description &&
      !GENERIC.has(response.description) &&
      !response.description.includes('Error codes:');
    if (Number(status) >= 400 && own && response.description) notes[status] = response.description;
  }
  const derived = errorResponsesFor(codes, notes);
  for (const [status, response] of Object.entries(derived)) responses[status] = response;
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) >= 400 && !derived[status]) {
      response.content ??= { 'application/json': { schema: { $ref: API_ERROR_SCHEMA_REF } } };
    }
  }
  operation[ERROR_CODES_EXTENSION] = codes;
  delete operation[PUBLIC_OPERATION_EXTENSION];
}
