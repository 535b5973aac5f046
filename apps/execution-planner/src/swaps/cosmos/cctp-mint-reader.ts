import { Injectable } from '@nestjs/common';
import { Connection, PublicKey } from '@solana/web3.js';
import { ChainRegistry } from '@swapgw/chains';
import {
  bridgeChainOfCctpDomain,
  CCTP_DOMAINS,
  cctpBurnOf,
  cctpMessageReceivedTx,
  DEVNET_BITCOIN_CCTP_DOMAIN,
  NOBLE_BRIDGE_CHAIN_ID,
} from '@swapgw/chains/families';
import {
  bitcoinBridgeRefundMemo,
  bitcoinBridgeReleaseMemo,
  bitcoinDepositNonce,
  opReturnText,
} from '@swapgw/chains/bitcoin-bridge';
import {
  SOLANA_BRIDGE_CHAIN_ID,
  solanaBridgeReleaseMemo,
  solanaDepositNonce,
} from '@swapgw/chains/solana-bridge';
import { EvmBridgeDeposits } from './evm-bridge-deposits';
import { CometClients } from './ibc-packet-reader';

/** How many of the vault's newest transactions are searched for the release (newest first). */
const VAULT_HISTORY = 1_000;
/** Bound of one Esplora read. */
const ESPLORA_TIMEOUT_MS = 5_000;

/** The fields of Esplora's transaction JSON read here. */
interface EsploraTx {
  txid: string;
  status: { confirmed: boolean };
  vin: { prevout?: { scriptpubkey_address?: string } | null }[];
  vout: { scriptpubkey: string; scriptpubkey_type: string }[];
}

/** Where a burn on Noble is: its CCTP nonce, the chain it mints on, the mint once it happened. */
export interface CctpMintProgress {
  nonce: string;
  destinationChain: string;
  /** The destination's transaction that paid the burn out; null while it has not. */
  mintTxHash: string | null;
  /**
   * The source end's transaction that sent the deposit back instead (a Bitcoin deposit towards Noble
   * the vault refunded: its minimum not met, its recipient not paid); absent while there is none.
   */
  refundTxHash?: string;
}

/**
 * Whether what a Cosmos step burnt through CCTP was minted on its destination, or what a Bitcoin step
 * deposited into the bridge's Bitcoin end was minted on Noble; null while unreadable.
 */
export abstract class CctpMintReader {
  abstract mintOf(chain: string, txHash: string): Promise<CctpMintProgress | null>;
}

/**
 * CctpMintReader of the devnet bridge's Cosmos end (Noble's CCTP). A Solana deposit towards Noble
 * (`chain` the Solana chain, `txHash` the deposit's signature): the message Noble received for it,
 * source domain 5 and the deposit's nonce (the first 32 bytes of its signature, as the bridge's
 * Solana end numbers deposits), found by its `circle.cctp.v1.MessageReceived` event (`tx_search`);
 * a Bitcoin deposit towards Noble likewise, or the vault's refund of it (nobleMintOfBitcoinDeposit), and an EVM deposit towards Noble
 * (evmDepositMintOf: the EVM chain's bridge id as source domain, the `DepositTo` nonce of the step's
 * receipt). A burn on Noble towards Solana and Bitcoin: the
 * burn's `circle.cctp.v1.DepositForBurn` event read from Noble's `/tx` (its nonce and destination
 * domain), then the destination end's release of that nonce, as a client reads it. On Solana: a
 * transaction of the vault's history whose memo is `swapgw-bridge-release:<Noble's bridge id>:<nonce>`
 * and whose fee payer is the vault's owner (anyone can write a memo; only the owner releases). On
 * Bitcoin: a confirmed spend of the vault (only the vault's key spends its coins) whose OP_RETURN is
 * `swapgw-bridge-release:<Noble's bridge id>:<nonce as base64url>` (bitcoinBridgeReleaseMemo), read
 * from Esplora's address history. Circle's own attestation service and MessageTransmitter are not
 * read: the devnet's relayer plays them.
 */
@Injectable()
export class DevnetBridgeMintReader extends CctpMintReader {
  private readonly clients: CometClients;
  private readonly evmDeposits: EvmBridgeDeposits;
  private connection: Connection | undefined;

  constructor(private readonly registry: ChainRegistry) {
    super();
    this.clients = new CometClients(registry);
    this.evmDeposits = new EvmBridgeDeposits(registry);
  }

  async mintOf(chain: string, txHash: string): Promise<CctpMintProgress | null> {
    const family = this.registry.get(chain).family;
    if (family === 'solana') return this.solanaDepositMintOf(txHash);
    if (family === 'bitcoin') return this.nobleMintOfBitcoinDeposit(txHash);
    if (family === 'evm') return this.evmDepositMintOf(chain, txHash);
    const tx = await this.clients.of(chain).committedTx(txHash);
    const burn = tx ? cctpBurnOf(tx) : undefined;
    if (!burn) return null;
    const destination = bridgeChainOfCctpDomain(burn.destinationDomain);
    const bitcoin = this.registry.manifest?.bitcoin;
    if (bitcoin && destination === BigInt(bitcoin.bridge.chainId)) {
      const memo = bitcoinBridgeReleaseMemo(BigInt(NOBLE_BRIDGE_CHAIN_ID), BigInt(burn.nonce));
      const payout = await bitcoinVaultPayout(bitcoin.esploraUrl, bitcoin.bridge.vault, memo);
      return { nonce: burn.nonce, destinationChain: bitcoin.id, mintTxHash: payout ?? null };
    }
    const solana = this.registry.manifest?.solana;
    if (destination !== BigInt(SOLANA_BRIDGE_CHAIN_ID) || !solana)
      throw new Error(`burn ${txHash} on ${chain} mints on domain ${burn.destinationDomain}, not read here`);
    const progress = { nonce: burn.nonce, destinationChain: solana.id, mintTxHash: null };
    const connection = this.solana(solana.rpcUrl);
    const memo = solanaBridgeReleaseMemo(BigInt(NOBLE_BRIDGE_CHAIN_ID), BigInt(burn.nonce));
    const history = await connection.getSignaturesForAddress(
      new PublicKey(solana.bridge.vault),
      { limit: VAULT_HISTORY },
      'confirmed',
    );
    for (const info of history) {
      if (info.err || !memosOf(info.memo).includes(memo)) continue;
      const release = await connection.getTransaction(info.signature, {
        maxSupportedTransactionVersion: 0,
        commitment: 'confirmed',
      });
      const feePayer = release?.transaction.message.staticAccountKeys[0]?.toBase58();
      if (release && !release.meta?.err && feePayer === solana.bridge.vaultOwner)
        return { ...progress, mintTxHash: info.signature };
    }
    return progress;
  }

  /** The mint on Noble of the Solana deposit `signature` (its nonce, source domain 5). */
  private solanaDepositMintOf(signature: string): Promise<CctpMintProgress> {
    return this.nobleMintOf(CCTP_DOMAINS.solana, solanaDepositNonce(signature).toString());
  }

  /**
   * A Bitcoin deposit into the bridge's Bitcoin end towards Noble: the message of the devnet's
   * Bitcoin domain with the deposit's txid as nonce (bitcoinDepositNonce). While Noble has not minted
   * it, the vault's refund of it is looked for: a confirmed spend of the vault whose OP_RETURN is
   * `swapgw-bridge-refund:<txid as base64url>` (bitcoinBridgeRefundMemo), as the vault records every
   * refund of a deposit it does not relay (its minimum not met, its recipient not paid).
   */
  private async nobleMintOfBitcoinDeposit(txid: string): Promise<CctpMintProgress> {
    const id = txid.toLowerCase();
    const progress = await this.nobleMintOf(DEVNET_BITCOIN_CCTP_DOMAIN, bitcoinDepositNonce(id).toString());
    const bitcoin = this.registry.manifest?.bitcoin;
    if (progress.mintTxHash !== null || !bitcoin) return progress;
    const refund = await bitcoinVaultPayout(
      bitcoin.esploraUrl,
      bitcoin.bridge.vault,
      bitcoinBridgeRefundMemo(id),
    );
    return refund ? { ...progress, refundTxHash: refund } : progress;
  }

  /**
   * An EVM deposit into the devnet bridge towards Noble (the wallet's `depositTo`, or the relayer's
   * transaction running its intent): the message of the EVM chain's bridge id as source domain and
   * the nonce of the receipt's `DepositTo` to Noble; null while the receipt is not readable.
   */
  private async evmDepositMintOf(chain: string, txHash: string): Promise<CctpMintProgress | null> {
    const deposit = await this.evmDeposits.depositToOf(
      chain,
      txHash,
      (each) => each.destinationChainId === BigInt(NOBLE_BRIDGE_CHAIN_ID),
      'Noble',
    );
    return deposit ? this.nobleMintOf(deposit.sourceDomain, deposit.nonce) : null;
  }

  /** Noble's mint of the message of `sourceDomain` and `nonce` (cctpMessageReceivedTx), when found. */
  private async nobleMintOf(sourceDomain: number, nonce: string): Promise<CctpMintProgress> {
    const noble = this.registry.list().find((each) => this.registry.devnetCosmos(each.id)?.bridge);
    if (!noble)
      throw new Error(`no listed Cosmos chain is the devnet bridge's end: the mint of ${nonce} is not read`);
    const received = await cctpMessageReceivedTx(this.clients.of(noble.id), sourceDomain, nonce);
    return { nonce, destinationChain: noble.id, mintTxHash: received?.hash ?? null };
  }

  private solana(rpcUrl: string): Connection {
    this.connection ??= new Connection(rpcUrl, 'confirmed');
    return this.connection;
  }
}

/**
 * The txid of the vault's confirmed spend carrying OP_RETURN `memo`, or undefined: Esplora's history
 * of the vault, newest first (`/address/:vault/txs`, then `/txs/chain/:last` pages), up to
 * VAULT_HISTORY transactions. A payout still in the mempool is not yet the step's settlement.
 */
async function bitcoinVaultPayout(
  esploraUrl: string,
  vault: string,
  memo: string,
): Promise<string | undefined> {
  const base = esploraUrl.replace(/\/$/, '');
  let path = `/address/${vault}/txs`;
  for (let read = 0; read < VAULT_HISTORY;) {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(ESPLORA_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`Esplora answered HTTP ${response.status} for ${path}`);
    const page = (await response.json()) as EsploraTx[];
    const confirmed = page.filter((tx) => tx.status.confirmed);
    for (const tx of confirmed) {
      const spendsVault = tx.vin.some((input) => input.prevout?.scriptpubkey_address === vault);
      const memos = tx.vout
        .filter((output) => output.scriptpubkey_type === 'op_return')
        .map((output) => opReturnText(Buffer.from(output.scriptpubkey, 'hex')));
      if (spendsVault && memos.includes(memo)) return tx.txid;
    }
    if (confirmed.length === 0) return undefined;
    read += confirmed.length;
    path = `/address/${vault}/txs/chain/${confirmed[confirmed.length - 1].txid}`;
  }
  return undefined;
}

/** The memos of getSignaturesForAddress's `memo` (`[<length>] <text>`, several joined by `; `). */
function memosOf(field: string | null | undefined): string[] {
  if (!field) return [];
  return field.split('; ').map((each) => each.replace(/^\[\d+\] /, ''));
}
