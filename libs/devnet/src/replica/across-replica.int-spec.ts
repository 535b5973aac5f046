import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Contract, JsonRpcProvider, Wallet, ZeroAddress } from 'ethers';
import { ChainRegistry, REAL_NETWORK_CATALOG } from '@swapgw/chains';
import {
  ACROSS_SPOKE_POOL_INTERFACE,
  acrossTransferOf,
  evmBridgePayoutOf,
  evmStepOf,
  type IntegratorFeeTransfer,
  LegStepChains,
  StepSpecChains,
} from '@swapgw/chains/families';
import type { RouteLeg } from '@swapgw/contracts';
import { freePort } from '@swapgw/testing';
import { devnetWallet } from '../accounts';
import { DEVNET_MNEMONIC } from '../anvil';
import { ACROSS_RELAYER_INDEX } from '../devnet-parameters';
import { localProvider } from '../evm-provider';
import { RunningMainnetReplica, startMainnetReplica } from './start-mainnet-replica';

// A USDC transfer base → arbitrum through Across on the replica, as a wallet makes it: the quote
// from the replica's suggested-fees API, the approve and deposit libs/chains builds for an `across`
// leg, sent on base; the replica's filler pays the recipient on arbitrum with fillRelay.
const CHAIN_IDS = { base: 8453, arbitrum: 42161 } as const;
const ERC20_ABI = ['function balanceOf(address) view returns (uint256)'];

interface SuggestedFees {
  outputAmount: string;
  timestamp: string;
  fillDeadline: string;
  exclusiveRelayer: string;
  exclusivityDeadline: number;
  spokePoolAddress: string;
  expectedFillTimeSec: number;
}

describe('Across on the mainnet replica', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-across-'));
  let replica: RunningMainnetReplica;
  let base: JsonRpcProvider;
  let arbitrum: JsonRpcProvider;
  const catalog = (chain: keyof typeof CHAIN_IDS) => REAL_NETWORK_CATALOG.find((c) => c.chain === chain)!;
  const usdc = (chain: keyof typeof CHAIN_IDS) =>
    catalog(chain).tokens.find((t) => t.symbol === 'USDC')!.address!;
  const spokePool = (chain: keyof typeof CHAIN_IDS) => catalog(chain).across!.spokePool;
  const evmChains: StepSpecChains = {
    familyOf: () => 'evm',
    evmChainIdOf: (chain) => CHAIN_IDS[chain as 'base'],
  };
  const chains: LegStepChains = {
    ...evmChains,
    // The SwapGatewayRouter a deposit paying integrator fees goes through (acrossWithFees).
    permitContractsOf: (chain) => ({
      permit2: catalog(chain as 'base').permit2!,
      permitRouter: catalog(chain as 'base').gatewayRouter!,
      acrossSpokePool: spokePool(chain as 'base'),
    }),
    bridgePayoutOf: (leg, recipient) => evmBridgePayoutOf(leg, recipient, evmChains),
    destinationSwapOf: () => {
      throw new Error('not a bridge-swap');
    },
  };

  beforeAll(async () => {
    replica = await startMainnetReplica({
      manifestPath: path.join(workDir, 'manifest.json'),
      portEthereum: await freePort(),
      portBase: await freePort(),
      portArbitrum: await freePort(),
    });
    const rpc = (id: string) => replica.manifest.mainnetReplica.evm.find((c) => c.id === id)!;
    base = localProvider(rpc('base').rpcUrl, CHAIN_IDS.base);
    arbitrum = localProvider(rpc('arbitrum').rpcUrl, CHAIN_IDS.arbitrum);
  }, 90_000);

  afterAll(async () => {
    base?.destroy();
    arbitrum?.destroy();
    await replica?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const quote = async (amount: bigint, recipient: string): Promise<SuggestedFees> => {
    const query = new URLSearchParams({
      inputToken: usdc('base'),
      outputToken: usdc('arbitrum'),
      originChainId: String(CHAIN_IDS.base),
      destinationChainId: String(CHAIN_IDS.arbitrum),
      amount: amount.toString(),
      recipient,
    });
    const response = await fetch(`${replica.manifest.mainnetReplica.acrossApiUrl}/suggested-fees?${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as SuggestedFees;
  };

  /** The across leg quote-service would write for this answer. */
  const acrossLeg = (
    amount: bigint,
    fees: SuggestedFees,
    fillDeadline = Number(fees.fillDeadline),
  ): RouteLeg => ({
    kind: 'bridge',
    chain: 'base',
    provider: 'across',
    tokenIn: { chain: 'base', symbol: 'USDC', address: usdc('base'), decimals: 6 },
    tokenOut: { chain: 'arbitrum', symbol: 'USDC', address: usdc('arbitrum'), decimals: 6 },
    amountIn: amount.toString(),
    expectedAmountOut: fees.outputAmount,
    minAmountOut: fees.outputAmount,
    spender: fees.spokePoolAddress,
    destinationChain: 'arbitrum',
    destinationBridgeChainId: CHAIN_IDS.arbitrum,
    across: {
      spokePool: fees.spokePoolAddress,
      outputToken: usdc('arbitrum'),
      outputAmount: fees.outputAmount,
      quoteTimestamp: Number(fees.timestamp),
      fillDeadline,
      exclusiveRelayer: fees.exclusiveRelayer,
      exclusivityDeadline: fees.exclusivityDeadline,
    },
    estimatedDurationSeconds: fees.expectedFillTimeSec,
  });

  /** Sends the leg's approve and deposit from `walletIndex` on base; the deposit id from FundsDeposited. */
  const deposit = async (walletIndex: number, leg: RouteLeg, recipient: string): Promise<bigint> =>
    (await depositWithHash(walletIndex, leg, recipient)).depositId;

  /** As deposit; with integratorFees, through the SwapGatewayRouter, which pays them first. */
  const depositWithHash = async (
    walletIndex: number,
    leg: RouteLeg,
    recipient: string,
    integratorFees?: IntegratorFeeTransfer[],
  ): Promise<{ depositId: bigint; txHash: string; depositor: string; inputAmount: bigint }> => {
    const wallet = devnetWallet(DEVNET_MNEMONIC, walletIndex, base);
    const input = {
      leg,
      spend: BigInt(leg.amountIn),
      minOut: BigInt(leg.minAmountOut),
      signer: wallet.address,
      recipient,
      finalRecipient: recipient,
      deadline: BigInt(Math.floor(Date.now() / 1000) + 3600),
      sponsored: false,
      ...(integratorFees ? { integratorFees } : {}),
    };
    const approve = evmStepOf(
      { ...input, step: { legIndex: 0, kind: 'approve', signing: 'evm-transaction', approves: 'spender' } },
      chains,
    );
    const own = evmStepOf(
      { ...input, step: { legIndex: 0, kind: 'bridge', signing: 'evm-transaction' } },
      chains,
    );
    await (await wallet.sendTransaction({ to: approve.call!.to, data: approve.call!.data })).wait();
    const receipt = await (await wallet.sendTransaction({ to: own.call!.to, data: own.call!.data })).wait();
    expect(receipt?.status).toBe(1);
    const event = receipt!.logs
      .filter((log) => log.address.toLowerCase() === spokePool('base').toLowerCase())
      .map((log) => ACROSS_SPOKE_POOL_INTERFACE.parseLog(log))
      .find((parsed) => parsed?.name === 'FundsDeposited');
    expect(event).toBeDefined();
    expect(event!.args.destinationChainId).toBe(42161n);
    expect(event!.args.outputAmount).toBe(BigInt(leg.minAmountOut));
    return {
      depositId: event!.args.depositId as bigint,
      txHash: receipt!.hash,
      depositor: event!.args.depositor as string,
      inputAmount: event!.args.inputAmount as bigint,
    };
  };

  /** The registry as the services build it from RPC_URL_BASE / RPC_URL_ARBITRUM on the replica. */
  const registry = () => {
    const rpc = (id: string) => replica.manifest.mainnetReplica.evm.find((c) => c.id === id)!.rpcUrl;
    return new ChainRegistry({ rpcUrls: { base: rpc('base'), arbitrum: rpc('arbitrum') } });
  };

  const usdcBalance = async (address: string) =>
    (await new Contract(usdc('arbitrum'), ERC20_ABI, arbitrum).balanceOf(address)) as bigint;
  const waitForBalance = async (address: string, atLeast: bigint, timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const balance = await usdcBalance(address);
      if (balance >= atLeast || Date.now() > until) return balance;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const fillsOf = async (depositId: bigint) =>
    (
      await arbitrum.getLogs({
        address: spokePool('arbitrum'),
        topics: [
          ACROSS_SPOKE_POOL_INTERFACE.getEvent('FilledRelay')!.topicHash,
          `0x${CHAIN_IDS.base.toString(16).padStart(64, '0')}`,
          `0x${depositId.toString(16).padStart(64, '0')}`,
        ],
        fromBlock: 0,
      })
    ).map((log) => ACROSS_SPOKE_POOL_INTERFACE.parseLog(log)!);

  it('fills a USDC deposit on base by paying the recipient outputAmount on arbitrum, the same deposit id in FilledRelay', async () => {
    const amount = 1_000_000_000n; // 1,000 USDC
    const recipient = Wallet.createRandom().address;
    const fees = await quote(amount, recipient);
    expect(BigInt(fees.outputAmount)).toBeLessThan(amount);
    expect(fees.exclusiveRelayer).toBe(ZeroAddress);

    const { depositId, txHash } = await depositWithHash(3, acrossLeg(amount, fees), recipient);
    expect(await waitForBalance(recipient, BigInt(fees.outputAmount))).toBe(BigInt(fees.outputAmount));

    const fills = await fillsOf(depositId);
    expect(fills).toHaveLength(1);
    const relayer = devnetWallet(DEVNET_MNEMONIC, ACROSS_RELAYER_INDEX).address;
    expect(fills[0].args.depositId).toBe(depositId);
    expect(fills[0].args.originChainId).toBe(8453n);
    expect(fills[0].args.outputAmount).toBe(BigInt(fees.outputAmount));
    expect(fills[0].args.relayer).toBe(`0x${relayer.slice(2).toLowerCase().padStart(64, '0')}`);
    expect(fills[0].args.recipient).toBe(`0x${recipient.slice(2).toLowerCase().padStart(64, '0')}`);

    // GET /status/transaction's bridge part: the deposit as Across identifies it, and its fill.
    const [fillLog] = await arbitrum
      .getLogs({
        address: spokePool('arbitrum'),
        topics: [ACROSS_SPOKE_POOL_INTERFACE.getEvent('FilledRelay')!.topicHash],
        fromBlock: 0,
      })
      .then((logs) =>
        logs.filter((log) => ACROSS_SPOKE_POOL_INTERFACE.parseLog(log)!.args.depositId === depositId),
      );
    expect(await acrossTransferOf(registry(), 'base', txHash, 5000)).toEqual({
      protocol: 'across',
      depositId: depositId.toString(),
      originChain: 'base',
      destinationChain: 'arbitrum',
      recipient,
      outputToken: usdc('arbitrum'),
      outputAmount: fees.outputAmount,
      fillDeadlineMs: Number(fees.fillDeadline) * 1000,
      fill: {
        status: 'filled',
        txHash: fillLog.transactionHash,
        filledAtMs: (await arbitrum.getBlock(fillLog.blockNumber))!.timestamp * 1000,
      },
    });
    // A transaction that made no deposit has no bridge transfer.
    const plain = await (
      await devnetWallet(DEVNET_MNEMONIC, 3, base).sendTransaction({ to: recipient, value: 1n })
    ).wait();
    expect(await acrossTransferOf(registry(), 'base', plain!.hash, 5000)).toBeUndefined();
  }, 60_000);

  it('a user-paid deposit with an integrator fee: the SwapGatewayRouter pays the fee on base and deposits the rest, the wallet being the depositor, and the fill pays the recipient', async () => {
    const amount = 200_000_000n; // 200 USDC deposited
    const fee = 600_000n; // and 0.60 USDC to the integrator, pulled with it
    const recipient = Wallet.createRandom().address;
    const feeRecipient = Wallet.createRandom().address;
    const walletIndex = 5;
    const wallet = devnetWallet(DEVNET_MNEMONIC, walletIndex, base).address;
    const baseUsdc = new Contract(usdc('base'), ERC20_ABI, base);
    const router = catalog('base').gatewayRouter!;
    const fees = await quote(amount, recipient);
    const before = (await baseUsdc.balanceOf(wallet)) as bigint;

    const { depositId, txHash, depositor, inputAmount } = await depositWithHash(
      walletIndex,
      acrossLeg(amount, fees),
      recipient,
      [{ recipient: feeRecipient, amount: fee }],
    );

    const receipt = await base.getTransactionReceipt(txHash);
    expect(receipt!.to).toBe(router);
    expect(await baseUsdc.balanceOf(feeRecipient)).toBe(fee);
    expect(before - ((await baseUsdc.balanceOf(wallet)) as bigint)).toBe(amount + fee);
    expect(await baseUsdc.balanceOf(router)).toBe(0n);
    // The SpokePool recorded the quoted amount with the wallet (not the router) as depositor, so an
    // unfilled deposit is refunded to it.
    expect(inputAmount).toBe(amount);
    expect(depositor).toBe(`0x${wallet.slice(2).toLowerCase().padStart(64, '0')}`);
    expect(await waitForBalance(recipient, BigInt(fees.outputAmount))).toBe(BigInt(fees.outputAmount));
    expect((await fillsOf(depositId)).map((fill) => fill.args.outputAmount)).toEqual([
      BigInt(fees.outputAmount),
    ]);
  }, 60_000);

  it('leaves a deposit past its fillDeadline unfilled', async () => {
    const amount = 100_000_000n;
    const late = Wallet.createRandom().address;
    const fees = await quote(amount, late);
    const now = (await arbitrum.getBlock('latest'))!.timestamp;
    const { depositId: expiredId, txHash: expiredTx } = await depositWithHash(
      4,
      acrossLeg(amount, fees, now - 60),
      late,
    );

    // A deposit made after it goes to the same destination: once it is paid, the filler has settled
    // the earlier one too (one wallet per destination, deposits in the order they were seen).
    const onTime = Wallet.createRandom().address;
    const onTimeFees = await quote(amount, onTime);
    const onTimeId = await deposit(4, acrossLeg(amount, onTimeFees), onTime);
    expect(await waitForBalance(onTime, BigInt(onTimeFees.outputAmount))).toBe(
      BigInt(onTimeFees.outputAmount),
    );
    expect(await fillsOf(onTimeId)).toHaveLength(1);

    expect(await usdcBalance(late)).toBe(0n);
    expect(await fillsOf(expiredId)).toHaveLength(0);
    expect(await acrossTransferOf(registry(), 'base', expiredTx, 5000)).toMatchObject({
      depositId: expiredId.toString(),
      fill: { status: 'expired' },
    });
  }, 60_000);
});
