import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { RelayerKeysReading } from './relayer-keys';
import { parseBudgetOverrides, parseWei, parseWeiByChain } from './wei-settings';

// class-validator constraints of the relaying variables of SignerSurfaceConfig: each delegates to
// the parser the relaying component uses, so what boots is exactly what runs.

/** Sits on the config's `relayerKeys` reading, never on RELAYER_KEYS itself (see the config). */
@ValidatorConstraint({ name: 'relayerKeysReadable' })
export class RelayerKeysReadable implements ValidatorConstraintInterface {
  validate(reading: RelayerKeysReading): boolean {
    return reading.ok;
  }

  defaultMessage(args: ValidationArguments): string {
    const reading = args.value as RelayerKeysReading;
    return reading.ok ? 'relayer keys are fine' : reading.problem;
  }
}

@ValidatorConstraint({ name: 'weiAmount' })
export class IsWeiAmount implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return parseWei(value) !== undefined;
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be a decimal string of wei (e.g. 1000000000000000000 for 1 ETH)`;
  }
}

@ValidatorConstraint({ name: 'lamportAmount' })
export class IsLamportAmount implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return parseWei(value) !== undefined;
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be a decimal string of lamports (e.g. 1000000000 for 1 SOL)`;
  }
}

@ValidatorConstraint({ name: 'satAmount' })
export class IsSatAmount implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return parseWei(value) !== undefined;
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be a decimal string of sats (e.g. 100000000 for 1 BTC)`;
  }
}

@ValidatorConstraint({ name: 'weiByChain' })
export class IsWeiByChain implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return typeof value === 'string' && parseWeiByChain(value, args.property, 0n).ok;
  }

  defaultMessage(args: ValidationArguments): string {
    const parsed =
      typeof args.value === 'string' ? parseWeiByChain(args.value, args.property, 0n) : undefined;
    return parsed && !parsed.ok
      ? parsed.problem
      : `${args.property} must be a decimal string of wei or a JSON object of them per chain`;
  }
}

@ValidatorConstraint({ name: 'budgetOverrides' })
export class IsBudgetOverrides implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return typeof value === 'string' && parseBudgetOverrides(value, args.property, 0n).ok;
  }

  defaultMessage(args: ValidationArguments): string {
    const parsed =
      typeof args.value === 'string' ? parseBudgetOverrides(args.value, args.property, 0n) : undefined;
    return parsed && !parsed.ok
      ? parsed.problem
      : `${args.property} must be a JSON object of wei amounts per API key id`;
  }
}
