import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export class ApiMetaDto {
  @ApiProperty({ description: 'Request correlation identifier (also in the X-Request-Id header)' })
  requestId!: string;

  @ApiProperty({ format: 'date-time', description: 'ISO 8601 timestamp' })
  timestamp!: string;
}

export class ApiErrorBodyDto {
  @ApiProperty({ description: 'Stable error code (see the catalog in the API description)' })
  code!: string;

  @ApiProperty({ description: 'Human-readable explanation' })
  message!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Structured context' })
  details?: Record<string, unknown>;
}

export class ApiErrorDto {
  @ApiProperty({ type: ApiErrorBodyDto })
  error!: ApiErrorBodyDto;

  @ApiProperty({ type: ApiMetaDto })
  meta!: ApiMetaDto;
}

/** Default description of each error status, as the spec words the conditions. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request or parameters (VALIDATION_FAILED, MALFORMED_JSON, IDEMPOTENCY_KEY_*, ...)',
  401: 'Missing or invalid API key (UNAUTHORIZED)',
  403: 'Caller is not the owner (FORBIDDEN)',
  404: 'Not found',
  405: 'Method not allowed on this path (METHOD_NOT_ALLOWED, Allow header lists the methods)',
  409: 'Conflict (idempotency or signing state)',
  410: 'Quote expired (QUOTE_EXPIRED); request a new quote',
  413: 'Body larger than the limit (PAYLOAD_TOO_LARGE)',
  415: 'Body is not application/json (UNSUPPORTED_MEDIA_TYPE)',
  429: 'Rate limit exceeded (RATE_LIMITED); see Retry-After',
  500: 'Internal error (INTERNAL_ERROR), logged with the request id',
  502: 'Upstream unavailable or failed',
  503: 'Persistence or messaging unavailable, or a dependency timed out',
};

/**
 * Documents a success response in the envelope `{ data: <dataType>, meta: ApiMeta }`. Use this
 * instead of ApiOkResponse so that the document says what a client really receives.
 */
export function ApiEnvelopedResponse(
  status: number,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  dataType: Type<any>,
  description: string,
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(dataType, ApiMetaDto),
    ApiResponse({
      status,
      description,
      schema: {
        type: 'object',
        required: ['data', 'meta'],
        properties: { data: { $ref: getSchemaPath(dataType) }, meta: { $ref: getSchemaPath(ApiMetaDto) } },
      },
    }),
  );
}

/** Documents error statuses with the ApiError body; descriptions can be overridden per status. */
export function ApiErrorResponses(
  ...statuses: Array<number | { status: number; description: string }>
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ApiErrorDto),
    ...statuses.map((entry) => {
      const { status, description } =
        typeof entry === 'number' ? { status: entry, description: ERROR_DESCRIPTIONS[entry] ?? 'Error' } : entry;
      return ApiResponse({ status, description, schema: { $ref: getSchemaPath(ApiErrorDto) } });
    }),
  );
}

export { ERROR_DESCRIPTIONS };
