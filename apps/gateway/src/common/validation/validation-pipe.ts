import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { ValidationError } from 'class-validator';
import { CodedError, ErrorCodes } from '@swapgw/contracts';

export interface FieldProblem {
  /** Dotted path of the field, e.g. `amount` or `permitSignature.v`. */
  field: string;
  /** Why it was refused, one sentence per broken rule. */
  reasons: string[];
}

export function fieldProblemsOf(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own: FieldProblem[] = error.constraints
      ? [{ field, reasons: Object.values(error.constraints) }]
      : [];
    return [...own, ...fieldProblemsOf(error.children ?? [], field)];
  });
}

export function validationFailed(errors: ValidationError[]): CodedError {
  const fields = fieldProblemsOf(errors);
  const summary = fields.map((f) => f.field).join(', ');
  return new CodedError(ErrorCodes.VALIDATION_FAILED, `Invalid request: ${summary || 'body'}`, { fields });
}

const NUL = '\u0000';
const NUL_REASON = 'must not contain the NUL character (U+0000)';

/**
 * Fields of `value` (a body, query, or path parameters) whose string holds a NUL character, which
 * no field of the API accepts and PostgreSQL cannot store in text: refused here, by name, rather
 * than failing deep in a service.
 */
export function fieldsWithNul(value: unknown, parent = '', depth = 0): FieldProblem[] {
  if (typeof value === 'string')
    return value.includes(NUL) ? [{ field: parent || 'value', reasons: [NUL_REASON] }] : [];
  if (depth > 32 || value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const field = parent ? `${parent}.${key}` : key;
    return [
      ...(key.includes(NUL) ? [{ field, reasons: [NUL_REASON] }] : []),
      ...fieldsWithNul(child, field, depth + 1),
    ];
  });
}

/**
 * The global pipe: a NUL character anywhere is refused, unknown properties are refused (not
 * silently dropped), values are transformed to the DTO's types, and failures become
 * VALIDATION_FAILED naming each field and why.
 */
class GatewayValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const withNul = fieldsWithNul(value);
    if (withNul.length > 0) {
      throw new CodedError(
        ErrorCodes.VALIDATION_FAILED,
        `Invalid request: ${withNul.map((f) => f.field).join(', ')}`,
        { fields: withNul },
      );
    }
    return super.transform(value, metadata);
  }
}

export function createGatewayValidationPipe(): ValidationPipe {
  return new GatewayValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => validationFailed(errors),
  });
}
