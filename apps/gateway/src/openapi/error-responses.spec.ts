import { ErrorCatalog } from '@swapgw/contracts';
import {
  crossCuttingErrorCodes,
  deriveOperationErrors,
  ERROR_CODES_EXTENSION,
  errorResponsesFor,
  operationErrorCodes,
  OperationLike,
  PUBLIC_OPERATION_EXTENSION,
  traitsOf,
} from './error-responses';

const codeEnumOf = (response: unknown): string[] => {
  const schema = (
    response as { content: { 'application/json': { schema: { allOf: Array<Record<string, any>> } } } }
  ).content['application/json'].schema;
  return schema.allOf[1].properties.error.properties.code.enum;
};

describe('error responses derived from the error catalog', () => {
  it('reads the traits that decide the shell errors from the operation', () => {
    expect(
      traitsOf({ [PUBLIC_OPERATION_EXTENSION]: true, parameters: [{ in: 'query', name: 'scope' }] }),
    ).toEqual({
      authenticated: false,
      validatesInput: true,
      hasBody: false,
      idempotency: 'none',
    });
    expect(
      traitsOf({ requestBody: {}, parameters: [{ in: 'header', name: 'Idempotency-Key', required: true }] }),
    ).toEqual({
      authenticated: true,
      validatesInput: true,
      hasBody: true,
      idempotency: 'required',
    });
    // A path parameter bound as a plain string is not validated by the pipe.
    expect(traitsOf({ parameters: [{ in: 'path', name: 'swapId' }] }).validatesInput).toBe(false);
  });

  it('adds what the shell answers on every route: 401, 429, 503 of the key store, 500; validation, body and idempotency codes where they apply', () => {
    expect(
      crossCuttingErrorCodes({
        authenticated: false,
        validatesInput: false,
        hasBody: false,
        idempotency: 'none',
      }),
    ).toEqual(['INTERNAL_ERROR']);
    const all = crossCuttingErrorCodes({
      authenticated: true,
      validatesInput: true,
      hasBody: true,
      idempotency: 'required',
    });
    expect(all).toEqual(
      expect.arrayContaining([
        'UNAUTHORIZED',
        'RATE_LIMITED',
        'PERSISTENCE_UNAVAILABLE',
        'VALIDATION_FAILED',
        'MALFORMED_JSON',
        'UNSUPPORTED_MEDIA_TYPE',
        'PAYLOAD_TOO_LARGE',
        'IDEMPOTENCY_KEY_REQUIRED',
        'IDEMPOTENCY_KEY_INVALID',
        'IDEMPOTENCY_CONFLICT',
        'IDEMPOTENCY_IN_PROGRESS',
      ]),
    );
    expect(
      crossCuttingErrorCodes({
        authenticated: true,
        validatesInput: false,
        hasBody: false,
        idempotency: 'optional',
      }),
    ).not.toContain('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('groups codes by the status the catalog maps them to, each response the ApiError restricted to its codes', () => {
    const responses = errorResponsesFor(
      ['QUOTE_NOT_FOUND', 'SWAP_NOT_FOUND', 'QUOTE_EXPIRED', 'SERVICE_UNAVAILABLE'],
      { '404': 'Unknown id' },
    );
    expect(Object.keys(responses)).toEqual(['404', '410', '503']);
    expect(codeEnumOf(responses['404'])).toEqual(['QUOTE_NOT_FOUND', 'SWAP_NOT_FOUND']);
    expect(responses['404'].description).toMatch(
      /^Unknown id\n\nError codes:\n- `QUOTE_NOT_FOUND`: quoteId is unknown\./,
    );
    expect(responses['410'].description).toContain(ErrorCatalog.QUOTE_EXPIRED.description);
    expect((responses['503'].content['application/json'].schema.allOf as unknown[])[0]).toEqual({
      $ref: '#/components/schemas/ApiErrorDto',
    });
  });

  it('derives every status of an operation from its declared codes plus the shell ones, and lists them all in x-error-codes', () => {
    const operation: OperationLike = {
      parameters: [{ in: 'header', name: 'Idempotency-Key', required: true }],
      requestBody: { content: {} },
      responses: {
        '200': { description: 'ok' },
        '404': { description: 'No such order' },
        '409': { description: 'Conflict' }, // a generic text: not kept as a note
        '418': { description: 'A status documented by hand without a code' },
      },
      [ERROR_CODES_EXTENSION]: [
        'LIMIT_ORDER_NOT_FOUND',
        'LIMIT_ORDER_NOT_REPLACEABLE',
        'SERVICE_UNAVAILABLE',
      ],
    };
    deriveOperationErrors(operation);
    const responses = operation.responses as Record<string, { description: string; content?: unknown }>;
    expect(Object.keys(responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '404',
      '409',
      '413',
      '415',
      '418',
      '429',
      '500',
      '503',
    ]);
    expect(codeEnumOf(responses['409'])).toEqual([
      'IDEMPOTENCY_CONFLICT',
      'IDEMPOTENCY_IN_PROGRESS',
      'LIMIT_ORDER_NOT_REPLACEABLE',
    ]);
    expect(codeEnumOf(responses['400'])).toEqual([
      'VALIDATION_FAILED',
      'MALFORMED_JSON',
      'IDEMPOTENCY_KEY_REQUIRED',
      'IDEMPOTENCY_KEY_INVALID',
    ]);
    expect(codeEnumOf(responses['503'])).toEqual(['SERVICE_UNAVAILABLE', 'PERSISTENCE_UNAVAILABLE']);
    expect(responses['404'].description.startsWith('No such order\n\nError codes:')).toBe(true);
    expect(responses['409'].description.startsWith('Error codes:')).toBe(true);
    expect(responses['418'].content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/ApiErrorDto' } },
    });
    expect(operation[ERROR_CODES_EXTENSION]).toEqual(
      operationErrorCodes({
        ...operation,
        [ERROR_CODES_EXTENSION]: [
          'LIMIT_ORDER_NOT_FOUND',
          'LIMIT_ORDER_NOT_REPLACEABLE',
          'SERVICE_UNAVAILABLE',
        ],
      }),
    );
    expect(operation[ERROR_CODES_EXTENSION]).toEqual(
      expect.arrayContaining(['LIMIT_ORDER_NOT_FOUND', 'UNAUTHORIZED', 'INTERNAL_ERROR']),
    );
  });

  it('refuses a declared code that is not in the catalog', () => {
    expect(() => operationErrorCodes({ [ERROR_CODES_EXTENSION]: ['NOT_A_CODE'] })).toThrow(
      /error catalog codes/,
    );
  });
});
