import { ChainRegistry } from '@swapgw/chains';
import { cctpDomainOfBridgeChain } from '@swapgw/chains/families';
import { FetchRequest, Interface, JsonRpcProvider } from 'ethers';

/** The devnet bridge's event of a deposit to a 32-byte recipient (its nonce, CCTP's on Noble). */
const BRIDGE = new Interface([
  'event DepositTo(uint256 indexed nonce, address indexed sender, bytes32 indexed recipient, uint256 destinationChainId, uint256 amount, uint256 amountAfterFee)',
]);

/** A `DepositTo` of the devnet bridge as the reader sees it. */
export interface EvmDepositTo {
  /** 0x-hex, lowercase: the 32 bytes the deposit pays. */
  recipient: string;
  destinationChainId: bigint;
}

/** The message Noble mints an EVM deposit by: the EVM chain's CCTP source domain and the deposit's nonce. */
export interface BridgeDepositMessage {
  sourceDomain: number;
  nonce: string;
}

/**
 * The devnet bridge's deposits on the devnet's EVM chains, read from a transaction's receipt over the
 * chain's JSON-RPC (one provider per chain, each call bounded): the `DepositTo` a step's transaction
 * made (the wallet's own, or the relayer's that ran its intent), as the relayer numbers it. Its source
 * domain is the EVM chain's bridge id (cctpDomainOfBridgeChain), as the relayer mints it on Noble.
 */
export class EvmBridgeDeposits {
  private readonly providers = new Map<string, JsonRpcProvider>();

  constructor(private readonly registry: ChainRegistry) {}

  /**
   * The message of the bridge's `DepositTo` in `txHash`'s receipt on `chain` that `matches`; null
   * while the receipt is not readable. A receipt with no such deposit is an error (`what` names it).
   */
  async depositToOf(
    chain: string,
    txHash: string,
    matches: (deposit: EvmDepositTo) => boolean,
    what: string,
  ): Promise<BridgeDepositMessage | null> {
    const view = this.registry.manifest?.chains.find((each) => each.id === chain);
    if (!view) throw new Error(`${chain} is not a devnet EVM chain with a bridge`);
    const receipt = await this.provider(chain, view.rpcUrl, view.chainId).getTransactionReceipt(txHash);
    if (!receipt) return null;
    const deposit = receipt.logs
      .filter((log) => log.address.toLowerCase() === view.bridge.address.toLowerCase())
      .map((log) => BRIDGE.parseLog({ topics: [...log.topics], data: log.data }))
      .find(
        (parsed) =>
          parsed?.name === 'DepositTo' &&
          matches({
            recipient: String(parsed.args.recipient).toLowerCase(),
            destinationChainId: BigInt(parsed.args.destinationChainId as bigint),
          }),
      );
    if (!deposit) throw new Error(`${txHash} on ${chain} deposited nothing to ${what}`);
    return { sourceDomain: cctpDomainOfBridgeChain(view.chainId), nonce: String(deposit.args.nonce) };
  }

  private provider(chain: string, rpcUrl: string, chainId: number): JsonRpcProvider {
    let client = this.providers.get(chain);
    if (!client) {
      // Bounded as the CometBFT calls are: an EVM node that does not answer is asked at the next pass.
      const request = new FetchRequest(rpcUrl);
      request.timeout = 5_000;
      client = new JsonRpcProvider(request, chainId, { staticNetwork: true });
      this.providers.set(chain, client);
    }
    return client;
  }
}
