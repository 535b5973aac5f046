import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { applyRulesToObjectSchema, SchemaLike, validationRulesOf } from './validation-constraints';

class ExampleDto {
  @IsInt()
  @Min(1)
  @Max(200)
  limit!: number;

  @IsString()
  @Matches(/^0x[0-9a-f]{64}$/)
  hash!: string;

  @IsString()
  @Matches(/^abc$/i)
  caseless!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  chain!: string;

  @Length(2, 5)
  code!: string;

  @IsOptional()
  @IsIn(['a', 'b'])
  mode?: string;

  @IsOptional()
  @IsInt({ each: true })
  counts?: number[];
}

describe('class-validator rules in the document', () => {
  it('writes integer, pattern, lengths, bounds, enum and optionality the validation pipe enforces', () => {
    const schema: SchemaLike = {
      type: 'object',
      properties: {
        limit: { type: 'number', maximum: 500 },
        hash: { type: 'string' },
        caseless: { type: 'string' },
        chain: { type: 'string' },
        code: { type: 'string' },
        mode: { type: 'string' },
        counts: { type: 'array', items: { type: 'number' } },
      },
      required: ['limit', 'hash', 'caseless', 'chain', 'code', 'mode'],
    };
    applyRulesToObjectSchema(schema, validationRulesOf(ExampleDto));
    expect(schema.properties!.limit).toEqual({ type: 'integer', minimum: 1, maximum: 200 });
    expect(schema.properties!.hash).toEqual({ type: 'string', pattern: '^0x[0-9a-f]{64}$' });
    // A case-insensitive expression has no JSON Schema pattern equivalent: left out rather than wrong.
    expect(schema.properties!.caseless).toEqual({ type: 'string' });
    expect(schema.properties!.chain).toEqual({ type: 'string', minLength: 1, maxLength: 64 });
    expect(schema.properties!.code).toEqual({ type: 'string', minLength: 2, maxLength: 5 });
    expect(schema.properties!.mode).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(schema.properties!.counts).toEqual({ type: 'array', items: { type: 'integer' } });
    expect(schema.required).toEqual(['limit', 'hash', 'caseless', 'chain', 'code']);
  });
});
