import type { TransactionStatusResult } from '@swapgw/contracts';
import type { ChainDescriptor } from '../../chain-descriptor';
import type { SponsoredFeeRates } from '../../sponsored-gas';
import type {
  BroadcastOutcome,
  PayloadBuild,
  PayloadPolicy,
  ResendOutcome,
  SigningChainClientBase,
  StepPayloadRequest,
  TransactionProgress,
} from '../chain-family';
import type { SignedTransactionArtifact } from '../signed-artifact-codec';
import { decodeBitcoinArtifact } from './bitcoin-artifact';
import type { BitcoinChainClient, BitcoinFeeRates } from './bitcoin-chain-client';
import type { BitcoinNetworkName } from './bitcoin-networks';
import { BitcoinStepNotBuildable, buildBitcoinStepPsbt } from './bitcoin-step-psbt';
import { assertBitcoinTxid, EsploraTransactionStatus } from './esplora-transaction-status';

/** The confirmation target a step's miner fee is priced for: the next two blocks. */
export const BITCOIN_FEE_TARGET_BLOCKS = 2;
/** What a transaction pays per vbyte when the API estimates nothing (Bitcoin Core's minimum relay fee). */
const MIN_RELAY_FEE_RATE = 1;

/** The Bitcoin family's signing client (a SigningChainClient). */
export interface BitcoinSigningChainClient extends SigningChainClientBase {
  readonly family: 'bitcoin';
}

/**
 * A Bitcoin chain the services sign for, over its Esplora API (helper BitcoinChainClient): a
 * step's payload is a PSBT spending the signer's UTXOs and one of the service's fee wallet (see
 * buildBitcoinStepPsbt), priced at the API's fee estimate for BITCOIN_FEE_TARGET_BLOCKS. Bitcoin
 * has no tokens and no allowances.
 */
export class BitcoinSigningChainClientImpl implements BitcoinSigningChainClient {
  readonly family = 'bitcoin' as const;
  private readonly status: EsploraTransactionStatus;

  constructor(
    readonly chain: ChainDescriptor,
    readonly esplora: BitcoinChainClient,
    readonly network: BitcoinNetworkName,
    esploraUrl: string,
    timeoutMs: number,
  ) {
    this.status = new EsploraTransactionStatus(esploraUrl, timeoutMs);
  }

  assertTxHash(txHash: string): void {
    assertBitcoinTxid(this.chain.id, txHash);
  }

  transactionStatus(txHash: string): Promise<TransactionStatusResult> {
    return this.status.status(this.chain.id, txHash);
  }

  /** Satoshis of `holder` (confirmed and in the mempool); Bitcoin has no tokens, so any token holds 0. */
  async readBalance(holder: string, token: string | null): Promise<bigint> {
    return token === null ? this.esplora.readBalance(holder) : 0n;
  }

  /** A UTXO spend is authorized by its own signature: no allowances. */
  async readAllowance(): Promise<null> {
    return null;
  }

  broadcast(rawTx: string): Promise<BroadcastOutcome> {
    return this.esplora.broadcast(rawTx);
  }

  isUnreachable(error: unknown): boolean {
    return this.esplora.isUnreachable(error);
  }

  /** False once another transaction spends one of its inputs: it can then never be mined. */
  async isStillLandable(artifact: SignedTransactionArtifact): Promise<boolean> {
    if (artifact.family !== 'bitcoin') return true;
    return (await this.conflictOf(artifact.rawTx, artifact.hash)) === null;
  }

  /** The first input of `rawTx` another transaction than `txHash` spends, with that transaction. */
  private async conflictOf(
    rawTx: string,
    txHash: string,
  ): Promise<{ outpoint: string; spender: string } | null> {
    const { tx } = decodeBitcoinArtifact(rawTx);
    for (let i = 0; i < tx.inputsLength; i++) {
      const input = tx.getInput(i);
      if (!input.txid || input.index === undefined) continue;
      const previous = Buffer.from(input.txid).toString('hex');
      const spender = await this.esplora.spenderOf(previous, input.index);
      if (spender !== null && spender !== txHash) return { outpoint: `${previous}:${input.index}`, spender };
    }
    return null;
  }

  /**
   * The step's PSBT from the signer's UTXOs now and the fee estimate now: the payment (and memo) of
   * the step's spec, the fee wallet's input of `request.bitcoinFeeInput` paying the miner. Too little
   * BTC is `would-revert` (as an EVM balance short of the amount); anything else that cannot be built
   * is `invalid`.
   */
  async buildPayload(
    request: StepPayloadRequest,
    policy: PayloadPolicy,
    nowMs: number,
  ): Promise<PayloadBuild> {
    const spec = request.bitcoin;
    if (!spec) return { kind: 'invalid', reason: 'a Bitcoin step needs its bitcoin spec' };
    if (!request.bitcoinFeeInput)
      return {
        kind: 'invalid',
        reason: "a Bitcoin step is paid by the service's fee wallet, and none was held",
      };
    const [utxos, rates] = await Promise.all([this.esplora.utxos(request.from), this.esplora.feeRates()]);
    const feeRate = feeRateFor(rates, BITCOIN_FEE_TARGET_BLOCKS);
    try {
      const built = buildBitcoinStepPsbt({
        network: this.network,
        userAddress: request.from,
        userPublicKey: spec.signerPublicKey,
        userUtxos: utxos,
        payment: { address: spec.vault, amount: BigInt(spec.amount) },
        integratorFees: (spec.integratorFees ?? []).map((fee) => ({
          address: fee.recipient,
          amount: BigInt(fee.amount),
        })),
        memo: spec.memo,
        feeUtxo: request.bitcoinFeeInput,
        feeRate,
      });
      return {
        kind: 'ready',
        payload: built.payload,
        executionHints: {
          txid: built.txid,
          minerFeeSats: built.minerFee.toString(),
          feeRateSatPerVbyte: String(feeRate),
          vsize: String(built.vsize),
          minerFeePaidBy: 'service',
        },
        expiresAtMs: nowMs + policy.ttlMs,
        cost: { maxFee: built.minerFee, rent: 0n, feePerUnit: BigInt(Math.ceil(feeRate)) },
        recommendedWallet: 'Xverse',
      };
    } catch (error) {
      if (!(error instanceof BitcoinStepNotBuildable)) throw error;
      return {
        kind: error.reason === 'insufficient-funds' ? 'would-revert' : 'invalid',
        reason: error.message,
      };
    }
  }

  progress(txHash: string, confirmationsRequired: number): Promise<TransactionProgress> {
    return this.esplora.progress(txHash, confirmationsRequired);
  }

  /**
   * Sends the recorded transaction again unless it is in a block already (a node that dropped it
   * from its mempool takes it back while its inputs are unspent); a transaction one of whose inputs
   * another transaction spent can never land (`expired`, the reason naming the input and the
   * transaction that spent it: the wallet spent it elsewhere, or replaced this one).
   */
  async resend(rawTx: string, txHash: string): Promise<ResendOutcome> {
    const where = await this.esplora.progress(txHash, 1);
    if (where.kind === 'included' || where.kind === 'confirmed') return { kind: 'landed' };
    const conflict = await this.conflictOf(rawTx, txHash);
    if (conflict)
      return {
        kind: 'expired',
        reason: `input ${conflict.outpoint} of Bitcoin transaction ${txHash} was spent by transaction ${conflict.spender} (the wallet spent it elsewhere or replaced this transaction): it can never confirm`,
      };
    const outcome = await this.esplora.broadcast(rawTx);
    if (outcome.kind === 'sent' || outcome.kind === 'already-known') return { kind: 'sent' };
    return { kind: 'send-failed', message: outcome.message };
  }

  /** Sat/vB for the next blocks, as the step's fee is priced; Bitcoin creates no accounts. */
  async fees(): Promise<SponsoredFeeRates> {
    const rate = feeRateFor(await this.esplora.feeRates(), BITCOIN_FEE_TARGET_BLOCKS);
    return { feePerGas: BigInt(Math.ceil(rate)), tokenAccountRent: 0n };
  }
}

/** The estimate for the smallest target at or above `target` blocks (else the largest one), at least 1 sat/vB. */
export function feeRateFor(rates: BitcoinFeeRates, target: number): number {
  const targets = [...rates.keys()].sort((a, b) => a - b);
  const chosen = targets.find((t) => t >= target) ?? targets[targets.length - 1];
  const rate = chosen === undefined ? MIN_RELAY_FEE_RATE : (rates.get(chosen) ?? MIN_RELAY_FEE_RATE);
  return Math.max(MIN_RELAY_FEE_RATE, rate);
}
