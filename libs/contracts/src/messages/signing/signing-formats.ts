import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';

/** The value forms the signing step specs share (module-private to the signing contracts). */

export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const HEX_DATA = /^0x([0-9a-fA-F]{2})*$/;
/** A non-negative integer as a decimal string (base units, wei, satoshis). */
export const BASE_UNITS = /^(0|[1-9][0-9]*)$/;
export const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The most integrator fee recipients a step pays (as a quote accepts them). */
export const MAX_STEP_INTEGRATOR_FEES = 5;

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-transformer's Type takes any class
type ClassOf = () => Function;
/** A class a variant is validated by. */
type VariantClass = new () => object;

/** Several property decorators as one. */
function allOf(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

/** A nested object of the class `type` returns, checked by that class's own rules. */
export function IsNestedObject(type: ClassOf): PropertyDecorator {
  return allOf(IsObject(), ValidateNested(), Type(type));
}

/**
 * A nested object that is one variant of a union: `variants` maps each value of its discriminator
 * `property` to the class that validates that variant (class-transformer's discriminated Type), so
 * each variant is checked by its own class alone. A value naming no variant (or none) is refused
 * on `property`, naming the variants there are.
 */
export function IsOneOf(
  property: string,
  variants: Readonly<Record<string, VariantClass>>,
): PropertyDecorator {
  const names = Object.keys(variants);
  /** What an object naming no variant is validated as: its discriminator, refused. */
  class NoVariant {}
  IsIn(names, { message: `${property} must be one of ${names.join(', ')}` })(NoVariant.prototype, property);
  return allOf(
    IsObject(),
    ValidateNested(),
    Type(() => NoVariant, {
      discriminator: { property, subTypes: names.map((name) => ({ name, value: variants[name] })) },
      keepDiscriminatorProperty: true,
    }),
  );
}

/** A step's optional list of integrator fees (at most MAX_STEP_INTEGRATOR_FEES), each of the class `type` returns. */
export function IsOptionalIntegratorFees(type: ClassOf): PropertyDecorator {
  return allOf(
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_STEP_INTEGRATOR_FEES),
    ValidateNested({ each: true }),
    Type(type),
  );
}

/** A Uniswap path of EVM token addresses: 2 to 8 tokens (1 to 7 hops). */
export function IsEvmPath(): PropertyDecorator {
  return allOf(ArrayMinSize(2), ArrayMaxSize(8), Matches(EVM_ADDRESS, { each: true }));
}

/** Uniswap V3: the pool fee of each hop (hundredths of a bip), 1 to 7 hops. */
export function IsPoolFees(): PropertyDecorator {
  return allOf(ArrayMinSize(1), ArrayMaxSize(7), IsInt({ each: true }), Min(1, { each: true }));
}

/** Seconds since epoch (a deadline). */
export function IsEpochSeconds(): PropertyDecorator {
  return allOf(IsInt(), Min(0));
}

/** A string with something in it (a name, a version, a memo). */
export function IsNonEmptyString(): PropertyDecorator {
  return allOf(IsString(), IsNotEmpty());
}
