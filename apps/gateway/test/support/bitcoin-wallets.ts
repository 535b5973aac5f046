import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { BITCOIN_NETWORKS, type BitcoinNetworkName } from '@swapgw/chains/bitcoin-bridge';
import {
  type BitcoinDevnetKey,
  EsploraClient,
  type SignedPayment,
  signPayment,
  type SpendableCoin,
  type WalletAddressKind,
} from '@swapgw/devnet';
import type { UnisatLike } from '@swapgw/sdk';
import { waitFor } from '@swapgw/testing';

// Bitcoin wallets for e2e suites, as browser wallets hold them, on the devnet's regtest chain (or the
// mainnet replica's Bitcoin chain, `network: 'mainnet'`).

const REGTEST = BITCOIN_NETWORKS.regtest;

/** The payment addresses of the wallets the suite serves: p2wpkh Leather / Ledger, p2tr Unisat, p2sh-p2wpkh Xverse. */
export type { WalletAddressKind };

/** A key, its payment address, and the public key the wallet tells with it. */
export interface BitcoinWallet {
  privateKey: Uint8Array;
  address: string;
  /** Hex: x-only for Taproot (Unisat's getPublicKey), compressed otherwise. */
  publicKey: string;
}

/** What GET /swap/{swapId}/signing hands a Bitcoin step's wallet. */
export interface PsbtPayload {
  type: 'bitcoin-psbt';
  psbt: string;
  inputsToSign: { index: number; address: string; sighashTypes: number[] }[];
  network: string;
}

export function bitcoinWalletOf(
  privateKey: Uint8Array,
  kind: WalletAddressKind = 'p2wpkh',
  network: BitcoinNetworkName = 'regtest',
): BitcoinWallet {
  const compressed = secp256k1.getPublicKey(privateKey, true);
  const params = BITCOIN_NETWORKS[network];
  const payment =
    kind === 'p2tr'
      ? btc.p2tr(compressed.subarray(1), undefined, params)
      : kind === 'p2sh-p2wpkh'
        ? btc.p2sh(btc.p2wpkh(compressed, params), params)
        : btc.p2wpkh(compressed, params);
  if (payment.address === undefined) throw new Error(`@scure/btc-signer gave the ${kind} payment no address`);
  const address = payment.address;
  const publicKey = Buffer.from(kind === 'p2tr' ? compressed.subarray(1) : compressed).toString('hex');
  return { privateKey, address, publicKey };
}

/**
 * What a wallet's "cancel transaction" does (Unisat's and Xverse's speed-up / cancel, Sparrow's
 * "cancel"): a native SegWit wallet's `coin`, already spent by a transaction still in the mempool,
 * paid back to the wallet itself with a higher fee. Every input signals BIP125, so the node takes it
 * in place of the first spend, which can then never be mined.
 */
export function spendBackToSelf(wallet: BitcoinWallet, coin: SpendableCoin, fee: bigint): SignedPayment {
  const publicKey = secp256k1.getPublicKey(wallet.privateKey, true);
  const key: BitcoinDevnetKey = {
    path: 'fresh',
    network: 'regtest',
    privateKey: wallet.privateKey,
    publicKey,
    address: wallet.address,
    script: btc.p2wpkh(publicKey, REGTEST).script,
  };
  if (btc.p2wpkh(publicKey, REGTEST).address !== wallet.address)
    throw new Error(`${wallet.address} is not a native SegWit (P2WPKH) address of this key`);
  return signPayment({
    key,
    coins: [coin],
    outputs: [{ address: wallet.address, amount: coin.value - fee }],
    fee,
  });
}

/**
 * The one PSBT a single-step Bitcoin swap offers (`data.signing` of GET /swap/{swapId}/signing), as
 * the wallet of `address` gets it: of `network`, the miner fee the service's, two inputs (the
 * wallet's one UTXO and the fee wallet's), only the first asked of the wallet. The payload and its
 * unsigned transaction.
 */
export function offeredPsbt(
  signing: { payload: unknown; executionHints: Record<string, string> },
  address: string,
  network: BitcoinNetworkName,
): { payload: PsbtPayload; issued: btc.Transaction } {
  const payload = signing.payload as PsbtPayload;
  expect(payload).toMatchObject({ type: 'bitcoin-psbt', network });
  expect(signing.executionHints).toMatchObject({ minerFeePaidBy: 'service' });
  const issued = btc.Transaction.fromPSBT(Buffer.from(payload.psbt, 'base64'), { allowUnknownOutputs: true });
  expect(issued.inputsLength).toBe(2);
  expect(payload.inputsToSign).toEqual([{ index: 0, address, sighashTypes: [1] }]);
  return { payload, issued };
}

/**
 * What Unisat's, Xverse's or Leather's signPsbt does: signs the inputs listed with the sighash
 * asked and finalizes them; the signed transaction (`toPSBT()` is what the wallet hands back).
 */
export function signPsbt(payload: PsbtPayload, wallet: BitcoinWallet): btc.Transaction {
  const tx = btc.Transaction.fromPSBT(Buffer.from(payload.psbt, 'base64'), { allowUnknownOutputs: true });
  for (const input of payload.inputsToSign) {
    if (input.address !== wallet.address)
      throw new Error(`input ${input.index} is asked of ${input.address}, not of ${wallet.address}`);
    tx.signIdx(wallet.privateKey, input.index, input.sighashTypes);
    tx.finalizeIdx(input.index);
  }
  return tx;
}

/**
 * `wallet` behind Unisat's API (`window.unisat.signPsbt`): a hex PSBT in, the inputs it is asked to
 * sign (only its own address's) signed with the sighash types given, finalized unless
 * `autoFinalized: false`, hex out. What @swapgw/sdk's unisatSigner talks to in a browser.
 */
export function unisatWalletOf(wallet: BitcoinWallet): UnisatLike {
  return {
    async signPsbt(psbtHex, options) {
      const tx = btc.Transaction.fromPSBT(Buffer.from(psbtHex, 'hex'), { allowUnknownOutputs: true });
      for (const input of options?.toSignInputs ?? []) {
        if (input.address !== undefined && input.address !== wallet.address)
          throw new Error(`Unisat: input ${input.index} belongs to ${input.address}, not to this wallet`);
        tx.signIdx(wallet.privateKey, input.index, input.sighashTypes);
        if (options?.autoFinalized ?? true) tx.finalizeIdx(input.index);
      }
      return Buffer.from(tx.toPSBT()).toString('hex');
    },
  };
}

/**
 * A local Bitcoin chain (the devnet's, or the mainnet replica's) as a wallet sees it, through its
 * Esplora API, with a funder of new wallets (of the funder's network).
 */
export class DevnetBitcoinWallets {
  constructor(
    readonly esplora: EsploraClient,
    private readonly funder: () => BitcoinDevnetKey,
  ) {}

  /** Confirmed plus mempool satoshis of an address, as a wallet shows its balance. */
  async satsOf(address: string): Promise<bigint> {
    const { chain_stats: chain, mempool_stats: mempool } = await this.esplora.json<{
      chain_stats: { funded_txo_sum: number; spent_txo_sum: number };
      mempool_stats: { funded_txo_sum: number; spent_txo_sum: number };
    }>(`/address/${address}`);
    return BigInt(
      chain.funded_txo_sum - chain.spent_txo_sum + mempool.funded_txo_sum - mempool.spent_txo_sum,
    );
  }

  confirmed(txid: string): Promise<true> {
    return waitFor(
      async () =>
        (await this.esplora.json<{ confirmed: boolean }>(`/tx/${txid}/status`)).confirmed ? true : undefined,
      { timeoutMs: 30_000, intervalMs: 200, description: `Bitcoin transaction ${txid} in a block` },
    );
  }

  /** A new wallet (native SegWit by default) holding one confirmed UTXO of `sats`, paid by the funder. */
  async freshWalletWith(sats: bigint, kind: WalletAddressKind = 'p2wpkh'): Promise<BitcoinWallet> {
    const funder = this.funder();
    const wallet = bitcoinWalletOf(secp256k1.utils.randomSecretKey(), kind, funder.network);
    const coins = (await this.esplora.utxos(funder.address))
      .filter((u) => u.status.confirmed)
      .map((u) => ({ txid: u.txid, vout: u.vout, value: BigInt(u.value) }))
      .sort((a, b) => (b.value > a.value ? 1 : -1));
    const payment = signPayment({
      key: funder,
      coins,
      outputs: [{ address: wallet.address, amount: sats }],
      fee: 2_000n,
    });
    await this.esplora.broadcast(payment.hex);
    await this.confirmed(payment.txid);
    return wallet;
  }
}
