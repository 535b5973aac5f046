import { isEvmAddress, isSolanaAddress, isTokenRefOverride } from './address-formats';
import { parseBooleanLike } from './boolean-query';
import { isPositiveDecimalString } from './decimal-amount';
import { isValidIdempotencyKey } from '../../idempotency/idempotency-key';

describe('isPositiveDecimalString', () => {
  it.each(['1', '0.5', '1500.25', '10', '0.000001', '123456789012345678901234567890'])('accepts %s', (v) => {
    expect(isPositiveDecimalString(v)).toBe(true);
  });

  it.each([
    '0',
    '0.0',
    '-1',
    '+1',
    '1e5',
    '1E5',
    '.5',
    '5.',
    '01',
    ' 1',
    '1 ',
    '1,5',
    'abc',
    '',
    'NaN',
    'Infinity',
    '0x10',
  ])('refuses %p', (v) => expect(isPositiveDecimalString(v)).toBe(false));

  it('refuses non-strings, even numbers (no floats anywhere)', () => {
    expect(isPositiveDecimalString(1.5)).toBe(false);
    expect(isPositiveDecimalString(null)).toBe(false);
  });

  it('limits the number of decimals when asked', () => {
    expect(isPositiveDecimalString('1.123456', { maxDecimals: 6 })).toBe(true);
    expect(isPositiveDecimalString('1.1234567', { maxDecimals: 6 })).toBe(false);
    expect(isPositiveDecimalString('1', { maxDecimals: 0 })).toBe(true);
    expect(isPositiveDecimalString('1.0', { maxDecimals: 0 })).toBe(false);
  });
});

describe('parseBooleanLike', () => {
  it('reads 1/true as true and 0/false as false', () => {
    expect(parseBooleanLike('1')).toBe(true);
    expect(parseBooleanLike('true')).toBe(true);
    expect(parseBooleanLike('0')).toBe(false);
    expect(parseBooleanLike('false')).toBe(false);
  });

  it('leaves anything else unchanged so the validator refuses it', () => {
    for (const v of ['yes', 'TRUE', 'on', '', '2']) expect(parseBooleanLike(v)).toBe(v);
  });
});

describe('isEvmAddress', () => {
  const checksummed = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

  it('accepts a checksummed and an all-lowercase address', () => {
    expect(isEvmAddress(checksummed)).toBe(true);
    expect(isEvmAddress(checksummed.toLowerCase())).toBe(true);
  });

  it('refuses a mixed-case address with a wrong checksum', () => {
    expect(isEvmAddress('0x5fbDB2315678afecb367f032d93F642f64180aa3')).toBe(false);
  });

  it('refuses wrong lengths, missing 0x and non-hex', () => {
    expect(isEvmAddress('0x5FbDB2315678afecb367f032d93F642f64180aa')).toBe(false);
    expect(isEvmAddress('5FbDB2315678afecb367f032d93F642f64180aa3')).toBe(false);
    expect(isEvmAddress('0xZZbDB2315678afecb367f032d93F642f64180aa3')).toBe(false);
  });
});

describe('isSolanaAddress', () => {
  it('accepts 32-byte base58 keys', () => {
    expect(isSolanaAddress('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(true);
    expect(isSolanaAddress('11111111111111111111111111111111')).toBe(true); // system program: 32 zero bytes
  });

  it('refuses other lengths and characters outside base58', () => {
    expect(isSolanaAddress('EPjFWdd5AufqSSqeM2qN1xzybapC8G4')).toBe(false);
    expect(isSolanaAddress('z'.repeat(44))).toBe(false); // 33 bytes
    expect(isSolanaAddress('0PjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(false);
    expect(isSolanaAddress('0x5FbDB2315678afecb367f032d93F642f64180aa3')).toBe(false);
  });

  it('counts each leading 1 as a zero byte and refuses characters outside base58', () => {
    expect(isSolanaAddress(`${'1'.repeat(31)}2`)).toBe(true); // 31 zero bytes, then 1
    expect(isSolanaAddress(`${'1'.repeat(32)}2`)).toBe(false); // 33 bytes
    expect(isSolanaAddress(`0OIl${'1'.repeat(28)}`)).toBe(false);
  });

  it('refuses values that are not strings', () => {
    expect(isSolanaAddress(['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'])).toBe(false);
    expect(isEvmAddress(['0x5FbDB2315678afecb367f032d93F642f64180aa3'])).toBe(false);
  });
});

describe('isTokenRefOverride', () => {
  it('accepts EVM and Solana references and other namespaces with a plain address', () => {
    expect(isTokenRefOverride('eip155:31337:erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3')).toBe(true);
    expect(isTokenRefOverride('solana:mainnet:spl:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(true);
    expect(isTokenRefOverride('cosmos:osmosis-1:ibc:uosmo')).toBe(true);
    // Bitcoin has no token forms: its references are checked like any other namespace's.
    expect(isTokenRefOverride('bip122:000000000019d6689c085ae165831e93:slip44:0')).toBe(true);
  });

  it('refuses missing parts, bad addresses for known namespaces and non-numeric EVM chain ids', () => {
    expect(isTokenRefOverride('eip155:1:erc20')).toBe(false);
    expect(isTokenRefOverride('eip155:1:erc20:0x123')).toBe(false);
    expect(isTokenRefOverride('eip155:mainnet:erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3')).toBe(false);
    expect(isTokenRefOverride('solana:mainnet:spl:not-base58!')).toBe(false);
    expect(isTokenRefOverride('EIP155:1:erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3')).toBe(false);
    expect(isTokenRefOverride('a:b:c:d:e')).toBe(false);
  });
});

describe('isValidIdempotencyKey', () => {
  it('accepts up to 200 characters of A-Za-z0-9._:-', () => {
    expect(isValidIdempotencyKey('01HZX3J5Q9V3K2M4N6P8R0S2T4')).toBe(true);
    expect(isValidIdempotencyKey('a.b_c:d-e')).toBe(true);
    expect(isValidIdempotencyKey('k'.repeat(200))).toBe(true);
  });

  it('refuses empty, too long and other characters', () => {
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('k'.repeat(201))).toBe(false);
    expect(isValidIdempotencyKey('with space')).toBe(false);
    expect(isValidIdempotencyKey('slash/')).toBe(false);
  });
});
