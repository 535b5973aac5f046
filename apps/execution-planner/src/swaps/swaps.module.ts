import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains/chains.module';
import { SigningEventsConsumer } from './signing-events.consumer';
import { SwapPlanner } from './swap-planner.service';
import { SwapCommandsConsumer } from './swap-commands.consumer';
import { SwapExpirySweeper } from './swap-expiry.sweeper';
import { KafkaLegRepricer, LegRepricer, SwapPriceChecker } from './swap-price-checker';
import { RepricingSignal } from './repricing-signal';
import { SwapProgress } from './swap-progress.service';
import { SwapRequestsController } from './swap-requests.controller';
import { SwapRepository, TypeOrmSwapRepository } from './swap.repository';
import { SettlementPoller } from './settlement-poller';
import { ThorchainStatusReader, ThornodeStatusReader } from './thornode-status-reader';
import { CctpMintReader, DevnetBridgeMintReader } from './cosmos/cctp-mint-reader';
import { CometNobleForwardingReader, NobleForwardingReader } from './cosmos/noble-forwarding-reader';
import { CometIbcPacketReader, IbcPacketReader } from './cosmos/ibc-packet-reader';

/**
 * Swaps from build to completion: build commands and requests, signer-surface's events, the
 * sweeper of abandoned swaps, the price checks of later legs (quote-service, request-reply) and
 * the settlement poller (THORChain's deposits from THORNode's tx/status, Cosmos transfers from their IBC
 * packets' acknowledgements and timeouts in the chains' events), over the planner's tables
 * (SwapRepository) and the chains (SWAP_CHAINS).
 */
@Module({
  imports: [ChainsModule],
  controllers: [SwapCommandsConsumer, SwapRequestsController, SigningEventsConsumer],
  providers: [
    TypeOrmSwapRepository,
    { provide: SwapRepository, useExisting: TypeOrmSwapRepository },
    SwapPlanner,
    SwapProgress,
    RepricingSignal,
    SwapExpirySweeper,
    { provide: LegRepricer, useClass: KafkaLegRepricer },
    SwapPriceChecker,
    { provide: ThorchainStatusReader, useClass: ThornodeStatusReader },
    { provide: IbcPacketReader, useClass: CometIbcPacketReader },
    { provide: CctpMintReader, useClass: DevnetBridgeMintReader },
    { provide: NobleForwardingReader, useClass: CometNobleForwardingReader },
    SettlementPoller,
  ],
})
export class SwapsModule {}
