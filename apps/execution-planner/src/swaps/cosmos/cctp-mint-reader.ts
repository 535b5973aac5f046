import { Injectable } from '@nestjs/common';
import { Connection, PublicKey } from '@solana/web3.js';
import { ChainRegistry } from '@swapgw/chains';
import {
  bridgeChainOfCctpDomain,
  CCTP_DOMAINS,
  cctpBurnOf,
  cctpMessageReceivedTx,
  NOBLE_BRIDGE_CHAIN_ID,
} from '@swapgw/chains/families';
import {
  SOLANA_BRIDGE_CHAIN_ID,
  solanaBridgeReleaseMemo,
  solanaDepositNonce,
} from '@swapgw/chains/solana-bridge';
import { CometClients } from './ibc-packet-reader';

/** How many of the vault's newest transactions are searched for the release (newest first). */
const VAULT_HISTORY = 1_000;

/** Where a burn on Noble is: its CCTP nonce, the chain it mints on, the mint once it happened. */
export interface CctpMintProgress {
  nonce: string;
  destinationChain: string;
  /** The destination's transaction that paid the burn out; null while it has not. */
  mintTxHash: string | null;
}

/** Whether what a Cosmos step burnt through CCTP was minted on its destination; null while unreadable. */
export abstract class CctpMintReader {
  abstract mintOf(chain: string, txHash: string): Promise<CctpMintProgress | null>;
}

/**
 * CctpMintReader of the devnet bridge's Cosmos end (Noble's CCTP). A Solana deposit towards Noble
 * (`chain` the Solana chain, `txHash` the deposit's signature): the message Noble received for it,
 * source domain 5 and the deposit's nonce (the first 32 bytes of its signature, as the bridge's
 * Solana end numbers deposits), found by its `circle.cctp.v1.MessageReceived` event (`tx_search`).
 * A burn on Noble towards Solana: the burn's
 * `circle.cctp.v1.DepositForBurn` event read from Noble's `/tx` (its nonce and destination domain),
 * then the bridge's Solana end's release of that nonce, as a client reads it: a transaction of the
 * vault's history whose memo is `swapgw-bridge-release:<Noble's bridge id>:<nonce>` and whose fee
 * payer is the vault's owner (anyone can write a memo; only the owner releases). Circle's own
 * attestation service and MessageTransmitter are not read: the devnet's relayer plays them.
 */
@Injectable()
export class DevnetBridgeMintReader extends CctpMintReader {
  private readonly clients: CometClients;
  private connection: Connection | undefined;

  constructor(private readonly registry: ChainRegistry) {
    super();
    this.clients = new CometClients(registry);
  }

  async mintOf(chain: string, txHash: string): Promise<CctpMintProgress | null> {
    if (this.registry.get(chain).family === 'solana') return this.solanaDepositMintOf(txHash);
    const tx = await this.clients.of(chain).committedTx(txHash);
    const burn = tx ? cctpBurnOf(tx) : undefined;
    if (!burn) return null;
    const solana = this.registry.manifest?.solana;
    if (bridgeChainOfCctpDomain(burn.destinationDomain) !== BigInt(SOLANA_BRIDGE_CHAIN_ID) || !solana)
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
  private async solanaDepositMintOf(signature: string): Promise<CctpMintProgress> {
    const noble = this.registry.list().find((each) => this.registry.devnetCosmos(each.id)?.bridge);
    if (!noble)
      throw new Error(`no listed Cosmos chain is the devnet bridge's end: ${signature} is not read`);
    const nonce = solanaDepositNonce(signature).toString();
    const received = await cctpMessageReceivedTx(this.clients.of(noble.id), CCTP_DOMAINS.solana, nonce);
    return { nonce, destinationChain: noble.id, mintTxHash: received?.hash ?? null };
  }

  private solana(rpcUrl: string): Connection {
    this.connection ??= new Connection(rpcUrl, 'confirmed');
    return this.connection;
  }
}

/** The memos of getSignaturesForAddress's `memo` (`[<length>] <text>`, several joined by `; `). */
function memosOf(field: string | null | undefined): string[] {
  if (!field) return [];
  return field.split('; ').map((each) => each.replace(/^\[\d+\] /, ''));
}
