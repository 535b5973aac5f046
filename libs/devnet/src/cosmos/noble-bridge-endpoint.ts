import { BinaryWriter } from 'cosmjs-types/binary';
import { TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { getAddress } from 'ethers';
import {
  amountAfterBridgeFee,
  bytes32ToSolanaAddress,
  SOLANA_BRIDGE_CHAIN_ID,
} from '@swapgw/chains/solana-bridge';
import {
  BITCOIN_BRIDGE_CHAIN_ID,
  type BitcoinNetworkName,
  bytes32ToBitcoinAddress,
} from '@swapgw/chains/bitcoin-bridge';
import {
  bridgeChainOfCctpDomain,
  cctpDomainOfBridgeChain,
  NOBLE_BRIDGE_CHAIN_ID,
} from '@swapgw/chains/families';
import type { BridgeEndpoint, BridgeTransfer, ReleaseOutcome } from '../bridge/bridge-endpoint';
import type { RelayerLogger } from '../bridge/bridge-relayer';
import type { CosmosChain } from './cosmos-chain';
import {
  CctpModuleParams,
  cctpNonceUsed,
  NOBLE_DEVNET_RELAYER,
  parseDepositForBurnEvent,
  receiveCctpMessage,
} from './cosmos-cctp';
import { addressBytes } from './cosmos-keys';
import { txHash } from './cosmos-tx';

export interface NobleBridgeEndpointOptions {
  /** The devnet's Noble (in process: the relayer reads its blocks and submits its mints directly). */
  chain: CosmosChain;
  cctp: CctpModuleParams;
  /** The fee the bridge keeps on deposit, in basis points, as its other ends keep it. */
  feeBps: number;
  logger: RelayerLogger;
  /** How long a mint may take to be included before it counts as failed (retried). */
  includeTimeoutMs?: number;
  /** The network of the devnet's Bitcoin chain, whose addresses a burn towards Bitcoin names. */
  bitcoinNetwork?: BitcoinNetworkName;
}

const CONTEXT = 'NobleBridgeEndpoint';
const MSG_RECEIVE_MESSAGE_TYPE_URL = '/circle.cctp.v1.MsgReceiveMessage';

/**
 * The devnet bridge's Cosmos end, on Noble, shaped like Circle's CCTP there. Deposits: the
 * `circle.cctp.v1.DepositForBurn` events of MsgDepositForBurn txs (the USDC burnt on Noble), each
 * relayed to the bridge chain its `destination_domain` names (CCTP's domain 5 is Solana; the
 * devnet's EVM chains, which have no CCTP domain, by their chain id; Bitcoin by
 * DEVNET_BITCOIN_CCTP_DOMAIN, paid in BTC by the bridge's Bitcoin end), paid to the `mint_recipient`
 * as its chain writes addresses, less the bridge's fee. Releases: the relayer's MsgReceiveMessage
 * mints uusdc to the recipient once per (source, nonce), as CCTP's MessageTransmitter does.
 */
export class NobleBridgeEndpoint implements BridgeEndpoint {
  readonly chain: string;
  readonly bridgeChainId = BigInt(NOBLE_BRIDGE_CHAIN_ID);
  /** How many of the chain's included txs were read. */
  private cursor = 0;
  /** Releases submitted and not seen executed yet: `<source>:<nonce>` → the relayer tx's hash. */
  private readonly submitted = new Map<string, string>();

  constructor(private readonly options: NobleBridgeEndpointOptions) {
    this.chain = options.chain.spec.id;
  }

  async pollDeposits(): Promise<BridgeTransfer[]> {
    const included = this.options.chain.includedTxs();
    const fresh = included.slice(this.cursor);
    this.cursor = included.length;
    const transfers: BridgeTransfer[] = [];
    for (const tx of fresh) {
      if (tx.result.code !== 0) continue;
      for (const event of tx.result.events) {
        const burn = parseDepositForBurnEvent(event);
        if (!burn || burn.burnToken !== this.options.cctp.burnToken) continue;
        const destination = bridgeChainOfCctpDomain(burn.destinationDomain);
        const recipient = this.recipientOn(destination, burn.mintRecipient);
        const amount = amountAfterBridgeFee(burn.amount, this.options.feeBps);
        const fields = { txHash: tx.hash, nonce: burn.nonce.toString(), domain: burn.destinationDomain };
        if (recipient === undefined || amount === 0n) {
          // Burnt on Noble for good (devnet): nothing can pay it.
          this.options.logger.error(
            { msg: 'burn names no payable recipient or pays nothing after the fee; not relayed', ...fields },
            CONTEXT,
          );
          continue;
        }
        transfers.push({
          sourceChain: this.chain,
          sourceBridgeChainId: this.bridgeChainId,
          nonce: burn.nonce,
          destinationBridgeChainId: destination,
          recipient,
          amount,
          depositTxHash: tx.hash,
        });
      }
    }
    return transfers;
  }

  /**
   * The recipient as the destination writes it: a Solana public key, a Bitcoin address of the
   * devnet's network (bytes32ToBitcoinAddress: none when the 32 bytes are no output key), else an EVM
   * address (zero-padded).
   */
  private recipientOn(destination: bigint, mintRecipient: Uint8Array): string | undefined {
    const hex = Buffer.from(mintRecipient).toString('hex');
    if (destination === BigInt(SOLANA_BRIDGE_CHAIN_ID)) return bytes32ToSolanaAddress(hex);
    if (destination === BigInt(BITCOIN_BRIDGE_CHAIN_ID)) {
      const network = this.options.bitcoinNetwork;
      if (network === undefined) return undefined;
      try {
        return bytes32ToBitcoinAddress(hex, network);
      } catch {
        return undefined;
      }
    }
    if (!/^0{24}/.test(hex)) return undefined;
    return getAddress(`0x${hex.slice(24)}`);
  }

  async release(transfer: BridgeTransfer): Promise<ReleaseOutcome> {
    const chain = this.options.chain;
    const sourceDomain = BigInt(cctpDomainOfBridgeChain(transfer.sourceBridgeChainId));
    if (cctpNonceUsed(chain.queryState, sourceDomain, transfer.nonce)) return { status: 'already-released' };
    if (!addressBytes(chain.spec.bech32Prefix, transfer.recipient))
      throw new Error(`recipient ${transfer.recipient} is not a ${chain.spec.bech32Prefix} account`);
    const key = `${sourceDomain}:${transfer.nonce}`;
    let hash = this.submitted.get(key);
    if (hash === undefined || chain.includedTx(hash)) {
      const raw = receiveMessageTx(sourceDomain, transfer);
      hash = txHash(raw);
      if (!chain.includedTx(hash)) {
        chain.submitRelayerTx(
          raw,
          receiveCctpMessage(this.options.cctp, {
            sourceDomain,
            nonce: transfer.nonce,
            recipient: transfer.recipient,
            amount: transfer.amount,
          }),
        );
        this.submitted.set(key, hash);
      }
    }
    const included = await this.waitForInclusion(hash);
    this.submitted.delete(key);
    if (included.result.code !== 0) {
      if (cctpNonceUsed(chain.queryState, sourceDomain, transfer.nonce))
        return { status: 'already-released' };
      throw new Error(`mint ${hash} failed: ${included.result.log}`);
    }
    return { status: 'released', txHash: hash };
  }

  async close(): Promise<void> {
    this.submitted.clear();
  }

  private async waitForInclusion(hash: string) {
    const deadline = Date.now() + (this.options.includeTimeoutMs ?? 15_000);
    for (;;) {
      const included = this.options.chain.includedTx(hash);
      if (included) return included;
      if (Date.now() > deadline) throw new Error(`mint ${hash} not included in time`);
      // The chain makes a block every blockMs (1 s by default).
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * The relayer's MsgReceiveMessage (from = 1, message = 2, attestation = 3) as a tx: its message the
 * transfer's fields, so each (source, nonce) has its own hash. The devnet's relayer is trusted: no
 * attestation, no signature.
 */
function receiveMessageTx(sourceDomain: bigint, transfer: BridgeTransfer): Uint8Array {
  const message = new TextEncoder().encode(
    JSON.stringify({
      sourceDomain: sourceDomain.toString(),
      nonce: transfer.nonce.toString(),
      recipient: transfer.recipient,
      amount: transfer.amount.toString(),
      depositTxHash: transfer.depositTxHash,
    }),
  );
  const value = BinaryWriter.create()
    .uint32(10)
    .string(NOBLE_DEVNET_RELAYER)
    .uint32(18)
    .bytes(message)
    .finish();
  return TxRaw.encode({
    bodyBytes: TxBody.encode(
      TxBody.fromPartial({
        messages: [{ typeUrl: MSG_RECEIVE_MESSAGE_TYPE_URL, value }],
        memo: 'swapgw devnet bridge relayer',
      }),
    ).finish(),
    authInfoBytes: new Uint8Array(),
    signatures: [],
  }).finish();
}
