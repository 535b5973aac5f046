import { ValidationPipe } from '@nestjs/common';
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

/**
 * The global pipe: unknown properties are refused (not silently dropped), values are transformed
 * to the DTO's types, and failures become VALIDATION_FAILED naming each field and why.
 */
export function createGatewayValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => validationFailed(errors),
  });
}
