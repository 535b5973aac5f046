import { sponsoredOwnerOf } from '../../../signing/signing-request.entity';
import { payloadRequestOf, type SponsoredPayloadIssue } from '../../../signing/payload-kinds/sponsored-issue';
import type { BitcoinFeeWalletSponsor } from '../bitcoin-fee-wallet-sponsor';

/**
 * Bitcoin: a UTXO of one of the service's fee wallets is held for the step and spent beside the
 * user's; its input pays the whole miner fee, so the user's balance drops by the payment alone. The
 * step is admitted under the key's daily budget (satoshis) with that fee. The hold outlives the
 * payload (a refresh of the same step gets the same UTXO back) and is let go when nothing could be
 * built on it.
 */
export const bitcoinFeeWalletIssue: SponsoredPayloadIssue<BitcoinFeeWalletSponsor> = {
  modes: ['bitcoin-fee-wallet'],
  family: 'bitcoin',
  relayed: false,
  feePayerSignsLater: true,
  async issue(row, client, { policy, nowMs }, sponsor) {
    const step = { chain: row.chain, swapId: row.swapId, stepIndex: row.stepIndex };
    const feeInput = await sponsor.hold(
      step,
      BITCOIN_MIN_FEE_INPUT_SATS,
      nowMs + policy.ttlMs + BITCOIN_FEE_INPUT_HOLD_MARGIN_MS,
    );
    const release = () => sponsor.release(step);
    try {
      const built = await client.buildPayload(
        { ...payloadRequestOf(row), bitcoinFeeInput: feeInput },
        policy,
        nowMs,
      );
      if (built.kind !== 'ready') {
        await release();
        return built;
      }
      await sponsor.admit(sponsoredOwnerOf(row), row.chain, built.cost.maxFee);
      // Which fee wallet signs the fee input once the user's signatures are checked.
      built.executionHints.feeWallet = feeInput.address;
      return built;
    } catch (error) {
      await release();
      throw error;
    }
  },
};

/**
 * The least a fee wallet UTXO held for a step is worth: the miner fee of a large step (20 user
 * inputs, about 1,500 vB) at 10 sat/vB, plus its change above dust. A step that needs more is
 * refused by the PSBT builder (fee-utxo-too-small) and its hold let go.
 */
const BITCOIN_MIN_FEE_INPUT_SATS = 20_000n;
/** How long a held fee input outlives its payload: a signature arriving at the deadline still finds it. */
const BITCOIN_FEE_INPUT_HOLD_MARGIN_MS = 60_000;
