import { Logger } from '@nestjs/common';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { shortMessageOf } from '@swapgw/chains';
import {
  BITCOIN_NETWORKS,
  BitcoinAddressUtxo,
  BitcoinChainClient,
  type BitcoinNetworkName,
  type TransactionProgress,
} from '@swapgw/chains/families';
import { KeyObject } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { SignerChains } from '../../chains/signer-chains';
import {
  type BitcoinFeeInput,
  BitcoinFeeInputsRepository,
  FeeInputStep,
} from './bitcoin-fee-inputs.repository';
import {
  decodeBitcoinWif,
  privateKeyBytes,
  secp256k1PrivateKey,
  wifNetworkOf,
} from './bitcoin-fee-wallet-keys';
import { FeeAccountLedger } from '../../sponsorship/fee-account-ledger';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { sponsorshipUnavailable } from '../../sponsorship/relaying-errors';
import { RelayingMetrics } from '../../sponsorship/relaying-metrics';

/** A user's Bitcoin transaction whose fee input the service signed, as the ledger records it. */
export interface SponsoredBitcoinTransaction {
  chain: string;
  /** The fee wallet whose input pays the miner fee. */
  feeWallet: string;
  /** The wallet whose transaction it is. */
  wallet: string;
  swapId: string;
  stepIndex: number;
  owner: string;
  txid: string;
  /** The fully signed transaction, hex. */
  rawTx: string;
  /** The whole miner fee (inputs minus outputs), which the fee input pays. */
  feeSats: bigint;
  /** The held UTXO it spends (BitcoinFeeWalletSponsor.hold). */
  feeInput: { txid: string; vout: number };
}

interface FeeWallet {
  address: string;
  key: KeyObject;
}

/**
 * The service's Bitcoin fee wallets (P2WPKH): a sponsored Bitcoin step's transaction spends the
 * user's UTXOs and one UTXO of a fee wallet, whose input pays the whole miner fee (its change goes
 * back to the fee wallet). The user signs their inputs, the service signs the fee input.
 *
 * A UTXO can be spent once, so each step holds the one it names (bitcoin_fee_inputs) until its
 * payload expires: another step never gets it meanwhile, and never once a transaction the service
 * signed spends it. Only confirmed UTXOs are taken (the fee wallets' unconfirmed change is not:
 * a user's transaction that never confirms would take the change spent after it along), the
 * smallest that covers the step. UTXOs and balances are read from the chain's Esplora API (its
 * descriptor's `rpcUrl`, else `statusApiUrl`) through the family's BitcoinChainClient. Keys are held as KeyObjects (nothing of a key prints).
 * Built at boot: a key for a chain the registry does not know, for a chain that is not Bitcoin, or
 * of another network than its chain's stops the app there.
 */
export class BitcoinFeeWallets {
  private readonly logger = new Logger(BitcoinFeeWallets.name);
  private readonly byChain = new Map<string, FeeWallet[]>();
  private readonly keyByAddress = new Map<string, KeyObject>();
  private readonly clients = new Map<string, BitcoinChainClient>();

  constructor(
    keys: RelayerKeySet,
    private readonly chains: SignerChains,
    private readonly minBalanceSats: bigint,
    private readonly holds: BitcoinFeeInputsRepository,
    private readonly ledger: FeeAccountLedger,
    private readonly timeoutMs: number = chains.rpcTimeoutMs,
  ) {
    const problems: string[] = [];
    for (const chain of keys.chains()) {
      const descriptor = chains.find(chain);
      if (descriptor?.family !== 'bitcoin') {
        const why = descriptor
          ? `a ${descriptor.family} chain: fee wallets pay Bitcoin transactions only`
          : 'which is not known';
        problems.push(`BITCOIN_FEE_WALLET_KEYS names chain ${chain}, ${why}`);
        continue;
      }
      const network: BitcoinNetworkName =
        descriptor.bitcoinNetwork ?? (descriptor.network === 'mainnet' ? 'mainnet' : 'testnet');
      const wallets: FeeWallet[] = [];
      for (const [i, wif] of keys.keysOf(chain).entries()) {
        const decoded = decodeBitcoinWif(wif);
        if (!decoded || decoded.network !== wifNetworkOf(network)) {
          problems.push(
            `BITCOIN_FEE_WALLET_KEYS["${chain}"] key #${i + 1} is not a WIF of the chain's network (${network})`,
          );
          continue;
        }
        const publicKey = secp256k1.getPublicKey(decoded.privateKey, true);
        const wallet = {
          address: btc.p2wpkh(publicKey, BITCOIN_NETWORKS[network]).address as string,
          key: secp256k1PrivateKey(decoded.privateKey),
        };
        decoded.privateKey.fill(0);
        wallets.push(wallet);
        this.keyByAddress.set(wallet.address, wallet.key);
      }
      this.byChain.set(chain, wallets);
      if (!this.clientOf(chain)) {
        this.logger.warn({
          msg: 'Bitcoin fee wallets configured for a chain without an Esplora API: sponsorship there is unavailable',
          chain,
        });
      }
    }
    if (problems.length > 0)
      throw new Error(`Invalid Bitcoin fee wallet configuration: ${problems.join('; ')}`);
  }

  chainIds(): string[] {
    return [...this.byChain.keys()];
  }

  addresses(chain: string): string[] {
    return (this.byChain.get(chain) ?? []).map((w) => w.address);
  }

  /**
   * Runs `sign` with the private key of fee wallet `address`, or answers null when it is none of
   * the service's. The key's bytes are zeroed once `sign` returns (or throws).
   */
  withKey<T>(address: string, sign: (privateKey: Uint8Array) => T): T | null {
    const key = this.keyByAddress.get(address);
    if (!key) return null;
    const bytes = privateKeyBytes(key);
    try {
      return sign(bytes);
    } finally {
      bytes.fill(0);
    }
  }

  /**
   * Holds a UTXO of the chain's fee wallets worth at least `minValueSats` for the step until
   * `holdUntilMs` (see the class). The step's live hold is answered again while it covers
   * `minValueSats`; one that does not is let go for a larger one. SPONSORSHIP_UNAVAILABLE when no
   * fee wallet is configured, none is above its minimum balance, or none has a free UTXO that large.
   */
  async hold(
    step: FeeInputStep,
    minValueSats: bigint,
    holdUntilMs: number,
    nowMs: number,
  ): Promise<BitcoinFeeInput> {
    const { chain } = step;
    if (this.addresses(chain).length === 0)
      throw sponsorshipUnavailable(chain, 'no Bitcoin fee wallet is configured for the chain');
    const held = await this.holds.heldBy(step, nowMs);
    if (held && held.value >= minValueSats) return held;

    const candidates = await this.candidates(chain, minValueSats, nowMs);
    const claimed = await this.holds.forStep(step, async (manager) => {
      // Looked at again under the step's lock: a concurrent request of the step may have held one.
      const current = await this.holds.heldBy(step, nowMs, manager);
      if (current && current.value >= minValueSats) return current;
      if (current) await this.holds.release(step, manager);
      for (const candidate of candidates) {
        const input: BitcoinFeeInput = {
          chain,
          txid: candidate.txid,
          vout: candidate.vout,
          value: candidate.value,
          address: candidate.address,
        };
        if (await this.holds.claim(manager, input, step, holdUntilMs, nowMs)) return input;
      }
      return null;
    });
    if (!claimed) {
      throw sponsorshipUnavailable(
        chain,
        `no fee wallet has a free confirmed UTXO of ${minValueSats} sats or more above its minimum balance (${this.minBalanceSats} sats)`,
      );
    }
    this.logger.log({
      msg: 'Bitcoin fee input held',
      chain,
      swapId: step.swapId,
      stepIndex: step.stepIndex,
      feeWallet: claimed.address,
      outpoint: `${claimed.txid}:${claimed.vout}`,
      valueSats: claimed.value.toString(),
      holdUntilMs,
    });
    return claimed;
  }

  /** Lets the step's unspent hold go. */
  release(step: FeeInputStep): Promise<void> {
    return this.holds.release(step);
  }

  /**
   * Free confirmed UTXOs of at least `minValueSats` of the chain's fee wallets at or above their
   * minimum balance, smallest first. Reading them notes each wallet's balance.
   */
  private async candidates(chain: string, minValueSats: bigint, nowMs: number): Promise<BitcoinFeeInput[]> {
    const client = this.clientOf(chain);
    if (!client) throw sponsorshipUnavailable(chain, 'the chain has no Esplora API configured');
    const [taken, reads] = await Promise.all([
      this.holds.unavailable(chain, nowMs),
      Promise.all(this.addresses(chain).map((address) => this.readUtxos(chain, client, address))),
    ]);
    const candidates: BitcoinFeeInput[] = [];
    for (const [i, address] of this.addresses(chain).entries()) {
      const utxos = reads[i];
      if (!utxos || this.balanceOf(utxos) < this.minBalanceSats) continue;
      for (const utxo of utxos) {
        if (!utxo.confirmed || utxo.value < minValueSats || taken.has(`${utxo.txid}:${utxo.vout}`)) continue;
        candidates.push({ chain, address, txid: utxo.txid, vout: utxo.vout, value: utxo.value });
      }
    }
    return candidates.sort(
      (a, b) =>
        (a.value < b.value ? -1 : a.value > b.value ? 1 : 0) ||
        a.txid.localeCompare(b.txid) ||
        a.vout - b.vout,
    );
  }

  /** A wallet's UTXOs, its balance noted; undefined when the read failed (logged). */
  private async readUtxos(
    chain: string,
    client: BitcoinChainClient,
    address: string,
  ): Promise<BitcoinAddressUtxo[] | undefined> {
    try {
      const utxos = await client.utxos(address);
      RelayingMetrics.balance(chain, address, this.balanceOf(utxos), this.minBalanceSats);
      return utxos;
    } catch (error) {
      this.logger.warn({
        msg: 'Bitcoin fee wallet UTXO read failed',
        chain,
        address,
        error: shortMessageOf(error),
      });
      return undefined;
    }
  }

  /** Confirmed and unconfirmed: what the wallet will hold once the mempool is mined. */
  private balanceOf(utxos: BitcoinAddressUtxo[]): bigint {
    return utxos.reduce((sum, utxo) => sum + utxo.value, 0n);
  }

  /** Reads the balance of every fee wallet of `chains` (default all) into the balance gauge. */
  async refreshBalances(chains: string[] = this.chainIds()): Promise<void> {
    await Promise.all(
      chains.flatMap((chain) => {
        const client = this.clientOf(chain);
        return client ? this.addresses(chain).map((address) => this.readUtxos(chain, client, address)) : [];
      }),
    );
  }

  /**
   * Writes the ledger row of a transaction whose fee input the service signed (pending) and marks
   * the step's hold spent by it, in the caller's transaction.
   * SPONSORSHIP_UNAVAILABLE when the step does not hold the fee input: nothing is written.
   */
  async record(manager: EntityManager, tx: SponsoredBitcoinTransaction, nowMs: number): Promise<string> {
    const step = { chain: tx.chain, swapId: tx.swapId, stepIndex: tx.stepIndex };
    if (!(await this.holds.markSpent(manager, step, tx.feeInput, tx.feeWallet, tx.txid))) {
      throw sponsorshipUnavailable(
        tx.chain,
        `fee input ${tx.feeInput.txid}:${tx.feeInput.vout} of ${tx.feeWallet} is not held for step ${tx.stepIndex} of swap ${tx.swapId}`,
      );
    }
    const id = await this.ledger.record(
      manager,
      {
        chain: tx.chain,
        purpose: 'bitcoin-transaction',
        account: tx.feeWallet,
        swapId: tx.swapId,
        stepIndex: tx.stepIndex,
        owner: tx.owner,
        to: tx.wallet,
        data: tx.rawTx,
        maxFee: tx.feeSats,
        value: 0n,
        txHash: tx.txid,
      },
      nowMs,
    );
    this.logger.log({
      msg: 'Bitcoin transaction fee input signed by the fee wallet',
      id,
      chain: tx.chain,
      swapId: tx.swapId,
      feeWallet: tx.feeWallet,
      txid: tx.txid,
      feeSats: tx.feeSats.toString(),
    });
    return id;
  }

  /** Until when the hold spent by `txid` was held (the step's payload expiry), null when none is. */
  spentHoldUntil(chain: string, txid: string): Promise<number | null> {
    return this.holds.spentHoldUntil(chain, txid);
  }

  /** The chain never took `txid`: the fee input it spent is free again. */
  releaseSpentBy(chain: string, txid: string): Promise<void> {
    return this.holds.releaseSpentBy(chain, txid);
  }

  /**
   * Where a transaction of the chain stands (BitcoinChainClient.progress, one confirmation);
   * undefined when the chain has no Esplora API here.
   */
  progress(chain: string, txid: string): Promise<TransactionProgress> | undefined {
    return this.clientOf(chain)?.progress(txid, 1);
  }

  /** The chain's Esplora client: its descriptor's `rpcUrl`, else `statusApiUrl`; undefined when neither. */
  clientOf(chain: string): BitcoinChainClient | undefined {
    let client = this.clients.get(chain);
    if (!client) {
      const descriptor = this.chains.find(chain);
      const baseUrl = descriptor?.rpcUrl ?? descriptor?.statusApiUrl;
      if (!baseUrl) return undefined;
      client = new BitcoinChainClient(baseUrl, this.timeoutMs);
      this.clients.set(chain, client);
    }
    return client;
  }
}
