import type { SponsoredTransactionStatus } from './gas-sponsor';
import { gasDropEndOf, relayEndOf } from './sponsored-ends';

const status = (fields: Partial<SponsoredTransactionStatus>): SponsoredTransactionStatus => ({
  state: 'pending',
  hashes: ['0xaa', '0xbb'],
  minedHash: null,
  failure: null,
  ...fields,
});

const WALLET = '0x00000000000000000000000000000000000000f1';

describe('the ends of sponsored transactions', () => {
  it("fails a relayed step with the ledger's code and reason once its transaction can never carry it", () => {
    expect(
      relayEndOf(
        status({
          state: 'cancelled',
          failure: { code: 'RELAY_FEE_CEILING', reason: 'not mined under 30 gwei; cancelled by 0xcc' },
        }),
      ),
    ).toEqual({
      code: 'RELAY_FEE_CEILING',
      reason: "the relayer's transaction cancelled (0xaa, 0xbb): not mined under 30 gwei; cancelled by 0xcc",
    });
    expect(
      relayEndOf(status({ state: 'lost', failure: { code: 'RELAY_LOST', reason: 'block 7 gone' } })),
    ).toEqual({ code: 'RELAY_LOST', reason: "the relayer's transaction lost (0xaa, 0xbb): block 7 gone" });
  });

  it('names a code from the state when the ledger gives none', () => {
    expect(relayEndOf(status({ state: 'dropped' }))?.code).toBe('RELAY_DROPPED');
    expect(relayEndOf(status({ state: 'cancelled' }))?.code).toBe('RELAY_FEE_CEILING');
    expect(relayEndOf(status({ state: 'lost' }))?.code).toBe('RELAY_LOST');
  });

  it('leaves pending, confirmed and reverted relayer transactions to the chain', () => {
    for (const state of ['pending', 'confirmed', 'failed'] as const) {
      expect(relayEndOf(status({ state, minedHash: state === 'pending' ? null : '0xbb' }))).toBeNull();
    }
  });

  it("fails a covered step whose gas drop never delivered with the drop's code, naming the gas drop", () => {
    expect(
      gasDropEndOf(
        status({ state: 'dropped', failure: { code: 'RELAY_DROPPED', reason: 'nonce 4 taken by 0xdd' } }),
        WALLET,
      ),
    ).toEqual({
      code: 'RELAY_DROPPED',
      reason: `the gas drop to ${WALLET} (0xaa, 0xbb) dropped: nonce 4 taken by 0xdd; the wallet's own transaction was not sent`,
    });
    expect(gasDropEndOf(status({ state: 'failed', minedHash: '0xbb' }), WALLET)).toEqual({
      code: 'TX_REJECTED',
      reason: `the gas drop to ${WALLET} (0xaa, 0xbb) reverted (0xbb): the wallet's own transaction was not sent`,
    });
    expect(gasDropEndOf(status({ state: 'pending' }), WALLET)).toBeNull();
    expect(gasDropEndOf(status({ state: 'confirmed', minedHash: '0xbb' }), WALLET)).toBeNull();
  });
});
