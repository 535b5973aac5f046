import type { ThorchainSwapProgress } from '@swapgw/chains/bitcoin-bridge';
import type { NobleForwardingProgress } from '@swapgw/chains/families';
import type { NobleForwardingSpec, SwapStepPacket } from '@swapgw/contracts';
import { CctpMintReader, type CctpMintProgress } from '../../src/swaps/cosmos/cctp-mint-reader';
import { IbcPacketReader } from '../../src/swaps/cosmos/ibc-packet-reader';
import { NobleForwardingReader } from '../../src/swaps/cosmos/noble-forwarding-reader';
import { ThorchainStatusReader } from '../../src/swaps/thornode-status-reader';

/** THORNode as a typed fake: the progress it reports per inbound hash, or its failure. */
export class FakeThornode extends ThorchainStatusReader {
  readonly asked: string[] = [];
  answer: ThorchainSwapProgress | Error = { phase: 'swapping', outTxIds: [] };

  async progressOf(hash: string): Promise<ThorchainSwapProgress> {
    this.asked.push(hash);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}

/** The Cosmos chains as a typed fake: the packet they show per transfer, or their failure. */
export class FakePackets extends IbcPacketReader {
  readonly asked: Array<[string, string]> = [];
  answer: SwapStepPacket | null | Error = null;

  async packetOf(chain: string, txHash: string): Promise<SwapStepPacket | null> {
    this.asked.push([chain, txHash]);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}

/** Noble and the bridge's destination as a typed fake: the burn's mint per burn tx, or their failure. */
export class FakeMints extends CctpMintReader {
  readonly asked: Array<[string, string]> = [];
  answer: CctpMintProgress | null | Error = null;

  async mintOf(chain: string, txHash: string): Promise<CctpMintProgress | null> {
    this.asked.push([chain, txHash]);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}

/** The chains after a forwarding deposit as a typed fake: the route's progress per deposit, or their failure. */
export class FakeForwards extends NobleForwardingReader {
  readonly asked: Array<[string, string, string]> = [];
  answer: NobleForwardingProgress | null | Error = null;

  async progressOf(
    chain: string,
    txHash: string,
    forwarding: NobleForwardingSpec,
  ): Promise<NobleForwardingProgress | null> {
    this.asked.push([chain, txHash, forwarding.address]);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}
