import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiExtension,
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { ErrorCode } from '@swapgw/contracts';
import { ERROR_CODES_EXTENSION, GENERIC_ERROR_DESCRIPTIONS, isErrorCode } from './error-responses';

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

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    properties: {
      fields: {
        type: 'array',
        description: 'VALIDATION_FAILED from the request validation: each refused field and why',
        items: {
          type: 'object',
          required: ['field', 'reasons'],
          properties: {
            field: {
              type: 'string',
              description: 'Dotted path of the field, e.g. `amount` or `permitSignature.v`',
            },
            reasons: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
    description:
      'Structured context; its keys depend on the code (e.g. `fields` for VALIDATION_FAILED, `status` and `reason` for EXECUTION_TERMINAL)',
  })
  details?: Record<string, unknown>;
}

export class ApiErrorDto {
  @ApiProperty({ type: ApiErrorBodyDto })
  error!: ApiErrorBodyDto;

  @ApiProperty({ type: ApiMetaDto })
  meta!: ApiMetaDto;
}

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

/** A status with the route's own words; the codes of that status still come from the catalog. */
export interface ErrorStatusNote {
  status: number;
  description: string;
}

/**
 * Documents what a route can answer besides its success: the error codes its handler and services
 * can raise (`'QUOTE_NOT_FOUND'`), optionally a note per status. The document's error responses are
 * derived from these codes through the catalog's code → status mapping (openapi/error-responses.ts),
 * together with the codes the HTTP shell answers on every route (401, 429, validation, idempotency,
 * 500); the OpenAPI e2e test checks each declared code is in the document. A bare status (`404`)
 * is still accepted: it documents the status with the generic ApiError body.
 */
export function ApiErrorResponses(
  ...entries: Array<ErrorCode | number | ErrorStatusNote>
): MethodDecorator & ClassDecorator {
  const codes = entries.filter((entry): entry is ErrorCode => typeof entry === 'string');
  for (const code of codes) {
    if (!isErrorCode(code))
      throw new Error(`@ApiErrorResponses: ${String(code)} is not in the error catalog`);
  }
  const statuses = entries.filter((entry): entry is number | ErrorStatusNote => typeof entry !== 'string');
  return applyDecorators(
    ApiExtraModels(ApiErrorDto),
    ...(codes.length > 0 ? [ApiExtension(ERROR_CODES_EXTENSION, codes)] : []),
    ...statuses.map((entry) => {
      const { status, description } =
        typeof entry === 'number'
          ? { status: entry, description: GENERIC_ERROR_DESCRIPTIONS[entry] ?? 'Error' }
          : entry;
      return ApiResponse({ status, description, schema: { $ref: getSchemaPath(ApiErrorDto) } });
    }),
  );
}
