import { applyDecorators } from '@nestjs/common';
import { isThorchainAffiliate } from '@swapgw/chains/bitcoin-bridge';
import { Transform } from 'class-transformer';
import { IsBoolean, Matches, ValidateBy, ValidationOptions } from 'class-validator';
import { isValidIdempotencyKey } from '../../idempotency/idempotency-key';
import {
  isEvmAddress,
  isSolanaAddress,
  isTokenRefOverride,
  isWalletAddress,
  walletAddressForms,
} from './address-formats';
import { parseBooleanLike } from './boolean-query';
import { DecimalAmountOptions, isPositiveDecimalString } from './decimal-amount';

/** Query flag `1` / `true` (also `0` / `false`), transformed to a boolean; anything else fails. */
export const IsBooleanLikeQuery = (options?: ValidationOptions): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }) => parseBooleanLike(value)),
    IsBoolean({ message: '$property must be 1 or true (or 0 or false)', ...options }),
  );

export const IsDecimalAmount = (
  amount: DecimalAmountOptions = {},
  options?: ValidationOptions,
): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isDecimalAmount',
      constraints: [amount.maxDecimals],
      validator: {
        validate: (value) => isPositiveDecimalString(value, amount),
        defaultMessage: () =>
          `$property must be a positive decimal string such as "1.5" (no sign, exponent or spaces${
            amount.maxDecimals !== undefined ? `, at most ${amount.maxDecimals} decimals` : ''
          })`,
      },
    },
    options,
  );

/** Integer string in base units ("1500000"), zero allowed: amounts travelling between services. */
export const IsBaseUnitAmount = (options?: ValidationOptions): PropertyDecorator =>
  Matches(/^(0|[1-9]\d{0,77})$/, {
    message: '$property must be an integer string in base units',
    ...options,
  });

export const IsEvmAddress = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isEvmAddress',
      validator: {
        validate: (value) => isEvmAddress(value),
        defaultMessage: () =>
          '$property must be a 0x EVM address, all-lowercase or with a valid EIP-55 checksum',
      },
    },
    options,
  );

export const IsSolanaAddress = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isSolanaAddress',
      validator: {
        validate: (value) => isSolanaAddress(value),
        defaultMessage: () => '$property must be a base58 Solana address of 32 bytes',
      },
    },
    options,
  );

/** A wallet address of any family (e.g. `recipient`, whose chain decides later which applies). */
export const IsWalletAddress = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isWalletAddress',
      validator: {
        validate: (value) => isWalletAddress(value),
        defaultMessage: () => `$property must be ${walletAddressForms('addressDescription')}`,
      },
    },
    options,
  );

/**
 * An integrator fee's recipient: a wallet address of any family (paid on the source chain), or a
 * THORChain affiliate (a THORName or `thor1…` address), which only THORChain routes pay.
 */
export const IsIntegratorFeeRecipient = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isIntegratorFeeRecipient',
      validator: {
        validate: (value) =>
          typeof value === 'string' && (isWalletAddress(value) || isThorchainAffiliate(value)),
        defaultMessage: () =>
          `$property must be an ${walletAddressForms('label')} address, or a THORChain affiliate (a THORName or thor1 address)`,
      },
    },
    options,
  );

export const IsTokenRefOverride = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isTokenRefOverride',
      validator: {
        validate: (value) => isTokenRefOverride(value),
        defaultMessage: () => '$property must have the form <namespace>:<chain id>:<kind>:<address>',
      },
    },
    options,
  );

export const IsIdempotencyKeyFormat = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isIdempotencyKeyFormat',
      validator: {
        validate: (value) => isValidIdempotencyKey(value),
        defaultMessage: () => '$property must be 1-200 characters of A-Za-z0-9._:-',
      },
    },
    options,
  );
