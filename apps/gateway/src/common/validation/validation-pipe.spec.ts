import { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, ValidateNested } from 'class-validator';
import { CodedError } from '@swapgw/contracts';
import { IsBooleanLikeQuery, IsDecimalAmount, IsEvmAddress } from './decorators';
import { createGatewayValidationPipe } from './validation-pipe';

class Signature {
  @IsInt()
  v!: number;
}

class Body {
  @IsDecimalAmount({ maxDecimals: 2 })
  amount!: string;

  @IsOptional()
  @IsEvmAddress()
  userAddress?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => Signature)
  permitSignature?: Signature;

  @IsOptional()
  @IsBooleanLikeQuery()
  flag?: boolean;
}

const metadata: ArgumentMetadata = { type: 'body', metatype: Body };

async function failure(value: unknown): Promise<CodedError> {
  try {
    await createGatewayValidationPipe().transform(value, metadata);
  } catch (error) {
    return error as CodedError;
  }
  throw new Error('expected a validation failure');
}

describe('gateway ValidationPipe', () => {
  it('transforms valid input, boolean-like flags included', async () => {
    const value = await createGatewayValidationPipe().transform({ amount: '1.25', flag: 'true' }, metadata);
    expect(value).toBeInstanceOf(Body);
    expect(value).toMatchObject({ amount: '1.25', flag: true });
  });

  it('answers VALIDATION_FAILED with one entry per bad field, nested fields dotted', async () => {
    const error = await failure({
      amount: '1.234',
      userAddress: '0x12',
      permitSignature: { v: 'x' },
      extra: 1,
    });
    expect(error).toBeInstanceOf(CodedError);
    expect(error.code).toBe('VALIDATION_FAILED');
    const fields = (error.details?.fields as Array<{ field: string; reasons: string[] }>)
      .map((f) => f.field)
      .sort();
    expect(fields).toEqual(['amount', 'extra', 'permitSignature.v', 'userAddress']);
    expect(error.message).toContain('amount');
  });

  it('refuses a JSON body that is not an object as a validation failure (not a 500)', async () => {
    for (const body of ['abc', 42, [1, 2], null]) {
      const error = await failure(body);
      expect(error).toBeInstanceOf(CodedError);
      expect(error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses a missing body as missing required fields', async () => {
    const error = await failure(undefined);
    expect((error.details?.fields as Array<{ field: string }>).map((f) => f.field)).toEqual(['amount']);
  });

  it('refuses a NUL character in any string or key, naming the field (PostgreSQL cannot store it: it was a 500)', async () => {
    const error = await failure({ amount: '1', userAddress: 'a\u0000b', permitSignature: { 'v\u0000': 1 } });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details?.fields).toEqual([
      { field: 'userAddress', reasons: ['must not contain the NUL character (U+0000)'] },
      { field: 'permitSignature.v\u0000', reasons: ['must not contain the NUL character (U+0000)'] },
    ]);
    const query = await createGatewayValidationPipe()
      .transform({ chainRef: 'a\u0000b' }, { type: 'query', metatype: Object })
      .catch((e: CodedError) => e);
    expect((query as CodedError).details?.fields).toEqual([
      { field: 'chainRef', reasons: ['must not contain the NUL character (U+0000)'] },
    ]);
  });
});
