import type { SigningChainClient } from '@swapgw/chains/families';
import { feePayerCostOf, feePayerShortfallOf } from './fee-payer-funds';

const FEE_PAYER = 'FeePayer1111111111111111111111111111111111111';

const row = (hints: Record<string, string> | null) => ({ swapId: 'swp-1', executionHints: hints });
const sponsoredHints = {
  feePayer: FEE_PAYER,
  estimatedFeeLamports: '10000',
  rentPaidByServiceLamports: '2039280',
};

/** A client whose only answer is the fee payer's balance (null: the read fails). */
const clientWith = (balance: bigint | null): SigningChainClient =>
  ({
    readBalance: async (holder: string, token: string | null) => {
      expect([holder, token]).toEqual([FEE_PAYER, null]);
      if (balance === null) throw new Error('fetch failed');
      return balance;
    },
  }) as unknown as SigningChainClient;

describe("the service's Solana fee payer's funds", () => {
  it('costs the fee payer the fees and the rent the payload announced', () => {
    expect(feePayerCostOf(row(sponsoredHints))).toEqual({ feePayer: FEE_PAYER, costLamports: 2_049_280n });
    expect(feePayerCostOf(row({ feePayer: FEE_PAYER }))).toEqual({
      feePayer: FEE_PAYER,
      costLamports: 10_000n,
    });
    expect(feePayerCostOf(row({ gasPaidBy: 'service' }))).toBeNull();
    expect(feePayerCostOf(row(null))).toBeNull();
  });

  it("tells the node's refusals for the fee payer's funds, naming the fee payer and the node's sentence", async () => {
    const answers = [
      'Simulation failed. \nMessage: Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.. \n\nCatch the `SendTransactionError`',
      'Simulation failed. \nMessage: Transaction simulation failed: Insufficient funds for fee. \n',
      'Transaction results in an account (0) with insufficient funds for rent',
      'Simulation failed. \nMessage: Transaction simulation failed: "AccountNotFound". \n',
      'Simulation failed. \nMessage: Transaction simulation failed: {"InsufficientFundsForRent":{"account_index":0}}. \n',
    ];
    for (const answer of answers) {
      const shortfall = await feePayerShortfallOf(clientWith(5_000_000_000n), row(sponsoredHints), answer);
      expect(shortfall?.feePayer).toBe(FEE_PAYER);
      expect(shortfall?.reason).toContain(`the service's fee payer ${FEE_PAYER} cannot pay`);
    }
    const drained = await feePayerShortfallOf(clientWith(0n), row(sponsoredHints), answers[0]);
    expect(drained?.reason).toBe(
      `the service's fee payer ${FEE_PAYER} cannot pay the transaction's 2049280 lamports of fees and rent (0 lamports left): Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.`,
    );
  });

  it('reads the balance when the node says something else: too little for the fees and rent is the cause', async () => {
    const other =
      'Simulation failed. \nMessage: Transaction simulation failed: Error processing Instruction 2: custom program error: 0x1. \n';
    expect((await feePayerShortfallOf(clientWith(2_000_000n), row(sponsoredHints), other))?.reason).toContain(
      '(2000000 lamports left)',
    );
    expect(await feePayerShortfallOf(clientWith(5_000_000_000n), row(sponsoredHints), other)).toBeNull();
    expect(await feePayerShortfallOf(clientWith(null), row(sponsoredHints), other)).toBeNull();
    // Without an answer (a transaction that never landed): the balance alone.
    expect((await feePayerShortfallOf(clientWith(0n), row(sponsoredHints)))?.reason).toContain(
      '(0 lamports left)',
    );
  });

  it('says nothing of a step without a fee payer of the service', async () => {
    expect(await feePayerShortfallOf(clientWith(0n), row(null), 'Insufficient funds for fee')).toBeNull();
  });
});
