import { Wallet } from 'ethers';
import { DEVNET_MNEMONIC } from './anvil';
import {
  ANVIL_ACCOUNTS,
  devnetRelayerKeys,
  estimateBridgeDurationSeconds,
  estimateSolanaBridgeDurationSeconds,
  RELAYER_INDEX,
  SPONSOR_RELAYER_INDICES,
  THORCHAIN_VAULT_INDEX,
  USER_ACCOUNT_INDICES,
} from './devnet-parameters';

describe('estimateBridgeDurationSeconds', () => {
  it('covers one poll interval and the relay round trips under automine', () => {
    expect(estimateBridgeDurationSeconds(500, undefined)).toBe(2);
  });

  it('adds one block time for the release when blocks are mined on an interval', () => {
    expect(estimateBridgeDurationSeconds(500, 2)).toBe(4);
    expect(estimateBridgeDurationSeconds(2000, 12)).toBe(15);
  });
});

describe('estimateSolanaBridgeDurationSeconds', () => {
  it('adds two Solana slots (deposit confirmation, release confirmation) to the poll and RPC budget', () => {
    expect(estimateSolanaBridgeDurationSeconds(500, 400, undefined)).toBe(3);
    expect(estimateSolanaBridgeDurationSeconds(500, 100, undefined)).toBe(2);
  });

  it('adds the EVM block time when the release lands on an interval-mined chain', () => {
    expect(estimateSolanaBridgeDurationSeconds(500, 400, 2)).toBe(5);
  });
});

describe('devnetRelayerKeys', () => {
  it('gives each EVM chain the four sponsor relayers, accounts anvil funds and no other role uses', () => {
    const keys = devnetRelayerKeys(DEVNET_MNEMONIC);
    expect(Object.keys(keys)).toEqual(['devnet-a', 'devnet-b']);
    expect(keys['devnet-a']).toEqual(keys['devnet-b']);
    expect(keys['devnet-a']).toHaveLength(4);
    expect(keys['devnet-a'].map((k) => new Wallet(k).address)[0]).toBe(
      '0xFABB0ac9d68B0B445fB7357272Ff202C5651694a',
    ); // anvil account 12
    const others: number[] = [0, RELAYER_INDEX, THORCHAIN_VAULT_INDEX, ...USER_ACCOUNT_INDICES];
    for (const index of SPONSOR_RELAYER_INDICES) {
      expect(index).toBeLessThan(ANVIL_ACCOUNTS);
      expect(others).not.toContain(index);
    }
    expect(THORCHAIN_VAULT_INDEX).toBeLessThan(ANVIL_ACCOUNTS);
  });
});
