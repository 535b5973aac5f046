import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BridgeSwapIntent,
  bridgeSwapIntentTypedData,
  eip2612PermitTypedData,
  encodeSponsoredCall,
  ethersTypedDataArgs,
  PERMIT2_WITNESS_TYPE_STRINGS,
  randomPermit2Nonce,
  recoverTypedDataSigner,
  SPONSORED_EVM_GAS,
  SponsoredCall,
  TypedDataV4,
  relayedGasLimit,
  DEFAULT_RELAYER_GAS_EXTRA,
} from '@swapgw/chains';
import { freePort } from '@swapgw/testing';
import {
  AbiCoder,
  Contract,
  EventLog,
  HDNodeWallet,
  hexlify,
  Interface,
  JsonRpcProvider,
  Log,
  MaxUint256,
  parseUnits,
  randomBytes,
  TransactionReceipt,
  Wallet,
} from 'ethers';
import { devnetWallet } from './accounts';
import { BridgeRelayer, RelayerLogger } from './bridge/bridge-relayer';
import { EvmBridgeEndpoint } from './bridge/evm-bridge-endpoint';
import {
  BRIDGE_SWAP_OUTCOMES,
  DEVNET_BRIDGE_ABI,
  ERC20_PERMIT_ABI,
  PERMIT2_ABI,
  SWAP_GATEWAY_ROUTER_ABI,
  UNISWAP_V2_ROUTER_ABI,
} from './contracts/abis';
import { RELAYER_INDEX } from './devnet-parameters';
import { localProvider } from './evm-provider';
import { DevnetChain, devnetChain } from './manifest';
import { RunningDevnet, startDevnet } from './start-devnet';

/** A funded anvil account no other devnet role uses (0 deploys, 1..9 are users, 10 is the bridge relayer). */
const SPONSOR_INDEX = 11;
/** The devnet user whose USDC the fresh owners receive. */
const FUNDER_INDEX = 1;
const MESSAGE_TUPLE =
  'tuple(address owner, address venue, address[] path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline)';

// A bridge deposit whose swap on the destination chain runs from the one signature made on the
// source chain (as Across messages): a wallet without ETH signs a BridgeSwapIntent on devnet-a, the
// sponsor (the service's relayer) sends bridgeAndSwapWithIntent there, and the bridge relayer's
// releaseWithMessage on devnet-b hands the USDC to devnet-b's SwapGatewayRouter, which swaps it for
// the recipient, or pays the recipient the USDC when the swap cannot happen.
describe('devnet bridge-and-swap intents: one signature on the source chain, the swap on the destination', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-bridge-swap-'));
  let devnet: RunningDevnet;
  let a: DevnetChain;
  let b: DevnetChain;
  let providerA: JsonRpcProvider;
  let providerB: JsonRpcProvider;
  let sponsor: HDNodeWallet;
  let routerA: Contract;
  let routerB: Contract;
  let bridgeA: Contract;
  let bridgeB: Contract;
  /** The bridge relayer, polled by the tests themselves (the devnet's own one is idle, see beforeAll). */
  let relayer: BridgeRelayer;
  const relayerLog: { level: string; message: unknown }[] = [];
  const errors = new Interface(
    [...SWAP_GATEWAY_ROUTER_ABI, ...PERMIT2_ABI, ...DEVNET_BRIDGE_ABI].filter((f) => f.startsWith('error ')),
  );
  const revertName = (error: unknown) => {
    const data = (error as { data?: string }).data;
    return data ? (errors.parseError(data)?.name ?? data) : (error as Error).message;
  };
  const tokenA = (symbol: 'USDC' | 'DAI') =>
    new Contract(a.tokens[symbol].address, ERC20_PERMIT_ABI, providerA);
  const tokenB = (symbol: 'USDC' | 'DAI' | 'WETH') =>
    new Contract(b.tokens[symbol].address, ERC20_PERMIT_ABI, providerB);
  const balanceB = async (symbol: 'USDC' | 'DAI' | 'WETH', holder: string) =>
    (await tokenB(symbol).balanceOf(holder)) as bigint;
  /** An hour past the later of the two chains' clocks (a test moves devnet-b's clock forward). */
  const inAnHour = async () => {
    const [blockA, blockB] = await Promise.all([providerA.getBlock('latest'), providerB.getBlock('latest')]);
    return BigInt(Math.max(blockA!.timestamp, blockB!.timestamp)) + 3600n;
  };
  const afterFee = (amount: bigint) => amount - (amount * BigInt(devnet.manifest.bridge.feeBps)) / 10_000n;
  const quoteOnB = async (amountIn: bigint, path: string[]) =>
    (
      (await new Contract(b.uniswapV2.router, UNISWAP_V2_ROUTER_ABI, providerB).getAmountsOut(
        amountIn,
        path,
      )) as bigint[]
    ).at(-1)!;
  const sign = (owner: Wallet, td: TypedDataV4) => {
    const { domain, types, value } = ethersTypedDataArgs(td);
    return owner.signTypedData(domain, types, value);
  };
  // The node's estimate is exact for the pending block only: the relayers' head room on it
  // (GAS_LIMIT_PERCENT and RELAYER_GAS_EXTRA at their defaults).
  const withHeadroom = async (call: SponsoredCall) =>
    relayedGasLimit(await sponsor.estimateGas({ to: call.to, data: call.data, value: BigInt(call.value) }), {
      percent: 120,
      extra: DEFAULT_RELAYER_GAS_EXTRA,
    });
  const relay = async (call: SponsoredCall) => {
    const receipt = await (
      await sponsor.sendTransaction({
        to: call.to,
        data: call.data,
        value: BigInt(call.value),
        gasLimit: await withHeadroom(call),
      })
    ).wait();
    expect(receipt?.status).toBe(1);
    return receipt!;
  };
  const eventsOf = (receipt: TransactionReceipt, contract: Contract, name: string) =>
    receipt.logs
      .filter((log: Log) => log.address === contract.target)
      .map((log) => contract.interface.parseLog(log))
      .filter((parsed) => parsed?.name === name);
  /** The BridgeSwapSettled of the release of (devnet-a, nonce) on devnet-b. */
  const settlementOf = async (bridgeNonce: bigint) => {
    const [release] = (await bridgeB.queryFilter(
      bridgeB.filters.ReleaseWithMessage(BigInt(a.chainId), bridgeNonce),
    )) as EventLog[];
    expect(release).toBeDefined();
    const receipt = (await release.getTransactionReceipt())!;
    const settled = eventsOf(receipt, routerB, 'BridgeSwapSettled');
    expect(settled).toHaveLength(1);
    const [owner, recipient, tokenOut, amountIn, amountOut, outcome] = settled[0]!.args.toArray() as [
      string,
      string,
      string,
      bigint,
      bigint,
      bigint,
    ];
    return {
      owner,
      recipient,
      tokenOut,
      amountIn,
      amountOut,
      outcome: BRIDGE_SWAP_OUTCOMES[Number(outcome)],
      receipt,
    };
  };

  beforeAll(async () => {
    devnet = await startDevnet({
      manifestPath: path.join(workDir, 'manifest.json'),
      portA: await freePort(),
      portB: await freePort(),
      // The devnet's relayer polls once at start and then not for an hour: the tests relay
      // themselves, with the same code, exactly when they want to.
      relayerPollIntervalMs: 3_600_000,
    });
    a = devnetChain(devnet.manifest, 'devnet-a');
    b = devnetChain(devnet.manifest, 'devnet-b');
    providerA = localProvider(a.rpcUrl, a.chainId);
    providerB = localProvider(b.rpcUrl, b.chainId);
    sponsor = devnetWallet(devnet.manifest.mnemonic, SPONSOR_INDEX, providerA);
    routerA = new Contract(a.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, sponsor);
    routerB = new Contract(b.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, providerB);
    bridgeA = new Contract(a.bridge.address, DEVNET_BRIDGE_ABI, providerA);
    bridgeB = new Contract(
      b.bridge.address,
      DEVNET_BRIDGE_ABI,
      devnetWallet(devnet.manifest.mnemonic, RELAYER_INDEX, providerB),
    );
    const logger: RelayerLogger = {
      log: (message) => relayerLog.push({ level: 'log', message }),
      warn: (message) => relayerLog.push({ level: 'warn', message }),
      error: (message) => relayerLog.push({ level: 'error', message }),
    };
    relayer = new BridgeRelayer(
      [a, b].map(
        (chain) =>
          new EvmBridgeEndpoint({
            chain: chain.id,
            chainId: chain.chainId,
            bridgeAddress: chain.bridge.address,
            provider: localProvider(chain.rpcUrl, chain.chainId),
            relayer: devnetWallet(devnet.manifest.mnemonic, RELAYER_INDEX),
            solanaBridgeChainIds: [BigInt(devnet.manifest.solana.bridge.chainId)],
            logger,
          }),
      ),
      { pollIntervalMs: 3_600_000, logger },
    );
  }, 120_000);

  afterAll(async () => {
    await relayer?.stop();
    providerA?.destroy();
    providerB?.destroy();
    await devnet?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  /** A new key with no ETH on either chain, holding USDC on devnet-a, whose USDC Permit2 may move (a permit the sponsor submitted). */
  async function freshOwner(usdc = parseUnits('1000', 6)): Promise<Wallet> {
    const owner = new Wallet(hexlify(randomBytes(32)), providerA);
    const funder = devnetWallet(devnet.manifest.mnemonic, FUNDER_INDEX, providerA);
    await (
      await new Contract(a.tokens.USDC.address, ERC20_PERMIT_ABI, funder).transfer(owner.address, usdc)
    ).wait();
    const td = eip2612PermitTypedData({
      chainId: a.chainId,
      token: a.tokens.USDC.address,
      tokenName: a.tokens.USDC.name,
      version: a.tokens.USDC.permitVersion,
      owner: owner.address,
      spender: a.permits.permit2,
      value: MaxUint256,
      nonce: (await tokenA('USDC').nonces(owner.address)) as bigint,
      deadline: await inAnHour(),
    });
    await relay(encodeSponsoredCall(td, owner.address, await sign(owner, td)));
    expect(await providerA.getBalance(owner.address)).toBe(0n);
    expect(await providerB.getBalance(owner.address)).toBe(0n);
    return owner;
  }

  async function signedBridgeSwap(owner: Wallet, amount: bigint, intent: BridgeSwapIntent) {
    const nonce = randomPermit2Nonce();
    const deadline = await inAnHour();
    const td = bridgeSwapIntentTypedData({
      chainId: a.chainId,
      permit2: a.permits.permit2,
      router: a.permits.permitRouter,
      token: a.tokens.USDC.address,
      amount,
      nonce,
      deadline,
      intent,
    });
    const signature = await sign(owner, td);
    expect(recoverTypedDataSigner(td, signature)).toBe(owner.address);
    const permit = { permitted: { token: a.tokens.USDC.address, amount }, nonce, deadline };
    return { td, signature, permit, nonce, call: encodeSponsoredCall(td, owner.address, signature) };
  }

  /** Sends the signed call; returns the deposit's nonce and the receipt. */
  async function deposit(call: SponsoredCall) {
    const receipt = await relay(call);
    const [event] = eventsOf(receipt, bridgeA, 'DepositWithMessage');
    expect(event).toBeDefined();
    return { receipt, bridgeNonce: event!.args.nonce as bigint, event: event! };
  }

  it('deploys the router with the witness type string @swapgw/chains signs with', async () => {
    expect(await routerA.BRIDGE_SWAP_INTENT_WITNESS_TYPE()).toBe(
      PERMIT2_WITNESS_TYPE_STRINGS.BridgeSwapIntent,
    );
  });

  it('a zero-ETH owner signs once on devnet-a; the sponsor deposits with the message, the bridge relayer releases it to devnet-b’s router, which swaps: the recipient gets DAI ≥ amountOutMin, nothing stays behind', async () => {
    const owner = await freshOwner();
    const recipient = Wallet.createRandom().address;
    const amount = parseUnits('250', 6);
    const path = [b.tokens.USDC.address, b.tokens.DAI.address];
    const amountOutMin = ((await quoteOnB(afterFee(amount), path)) * 99n) / 100n;
    const intent = {
      venue: a.bridge.address,
      destinationChainId: b.chainId,
      destinationRouter: b.permits.permitRouter,
      destinationVenue: b.uniswapV2.router,
      path,
      amountOutMin,
      recipient,
      unwrapNative: false,
      deadline: await inAnHour(),
    };
    const { call, nonce } = await signedBridgeSwap(owner, amount, intent);
    expect(call.to).toBe(a.permits.permitRouter);
    const usdcBefore = (await tokenA('USDC').balanceOf(owner.address)) as bigint;

    const { receipt, bridgeNonce, event } = await deposit(call);

    // The source: exactly amount left the owner, into the bridge, for devnet-b's router, with the message.
    expect(usdcBefore - ((await tokenA('USDC').balanceOf(owner.address)) as bigint)).toBe(amount);
    const [, sender, depositRecipient, destinationChainId, depositAmount, depositAfterFee, message] =
      event.args.toArray() as [bigint, string, string, bigint, bigint, bigint, string];
    expect([sender, depositRecipient, destinationChainId, depositAmount, depositAfterFee]).toEqual([
      a.permits.permitRouter,
      b.permits.permitRouter,
      BigInt(b.chainId),
      amount,
      afterFee(amount),
    ]);
    const [decoded] = AbiCoder.defaultAbiCoder().decode([MESSAGE_TUPLE], message);
    expect(
      (decoded as { toArray(): unknown[] }).toArray().map((v) => (Array.isArray(v) ? [...v] : v)),
    ).toEqual([owner.address, b.uniswapV2.router, path, amountOutMin, recipient, false, intent.deadline]);
    expect(eventsOf(receipt, routerA, 'DepositWithIntent')[0]?.args.toArray()).toEqual([
      owner.address,
      bridgeNonce,
      BigInt(b.chainId),
      amount,
      nonce,
      sponsor.address,
    ]);
    expect(receipt.gasUsed).toBeLessThanOrEqual(SPONSORED_EVM_GAS.bridgeSwapIntent);
    expect(await tokenA('USDC').balanceOf(a.permits.permitRouter)).toBe(0n);

    // The destination: the bridge relayer's next round releases it with the message.
    expect(await balanceB('DAI', recipient)).toBe(0n);
    await relayer.pollOnce();
    expect(relayer.pendingTransfers()).toEqual([]);
    const settled = await settlementOf(bridgeNonce);
    const received = await balanceB('DAI', recipient);
    expect(received).toBeGreaterThanOrEqual(amountOutMin);
    expect(settled).toMatchObject({
      owner: owner.address,
      recipient,
      tokenOut: b.tokens.DAI.address,
      amountIn: afterFee(amount),
      amountOut: received,
      outcome: 'swapped',
    });
    expect(await balanceB('USDC', recipient)).toBe(0n);
    expect(await balanceB('USDC', b.permits.permitRouter)).toBe(0n);
    expect(await balanceB('DAI', b.permits.permitRouter)).toBe(0n);
    expect(await tokenB('USDC').allowance(b.permits.permitRouter, b.uniswapV2.router)).toBe(0n);
    expect(await bridgeB.released(BigInt(a.chainId), bridgeNonce)).toBe(true);
    // The owner paid no gas on either chain and never needed devnet-b's ETH.
    expect(await providerA.getBalance(owner.address)).toBe(0n);
    expect(await providerB.getBalance(owner.address)).toBe(0n);

    // A second release of the same deposit pays nothing, with or without the message.
    const again = [
      BigInt(a.chainId),
      bridgeNonce,
      b.permits.permitRouter,
      afterFee(amount),
      message,
    ] as const;
    expect(await bridgeB.releaseWithMessage.staticCall(...again)).toBe(false);
    expect(await bridgeB.release.staticCall(...again.slice(0, 4))).toBe(false);
    const second = (await (await bridgeB.releaseWithMessage(...again)).wait())!;
    expect(eventsOf(second, routerB, 'BridgeSwapSettled')).toEqual([]);
    expect(eventsOf(second, bridgeB, 'ReleaseWithMessage')).toEqual([]);
    expect(await balanceB('DAI', recipient)).toBe(received);
    expect(await balanceB('USDC', b.permits.permitRouter)).toBe(0n);
  });

  it('whatever the sponsor changes in the permit or the witness (destination chain, router, venue, path, minimum out, recipient, unwrap, deadlines, integrator fees, amount, nonce, owner) is InvalidSigner', async () => {
    const owner = await freshOwner();
    const bystander = await freshOwner();
    const amount = parseUnits('10', 6);
    const intent = {
      venue: a.bridge.address,
      destinationChainId: BigInt(b.chainId),
      destinationRouter: b.permits.permitRouter,
      destinationVenue: b.uniswapV2.router,
      path: [b.tokens.USDC.address, b.tokens.DAI.address],
      amountOutMin: parseUnits('9', 18),
      recipient: owner.address,
      unwrapNative: false,
      deadline: await inAnHour(),
      integratorFees: [] as { recipient: string; amount: bigint }[],
    };
    const { permit, signature, call } = await signedBridgeSwap(owner, amount, intent);
    expect(call.data).toBe(
      routerA.interface.encodeFunctionData('bridgeAndSwapWithIntent', [
        permit,
        owner.address,
        intent,
        signature,
      ]),
    );
    type Permit = typeof permit;
    const attempt = (p: Permit, i: typeof intent, from = owner.address) =>
      routerA.bridgeAndSwapWithIntent.staticCall(p, from, i, signature).then(
        () => 'accepted',
        (error: unknown) => revertName(error),
      );
    const tampered: [string, Permit, typeof intent, string?][] = [
      ['more', { ...permit, permitted: { ...permit.permitted, amount: amount + 1n } }, intent],
      ['less', { ...permit, permitted: { ...permit.permitted, amount: amount - 1n } }, intent],
      ['other destination chain', permit, { ...intent, destinationChainId: 31339n }],
      ['other destination router', permit, { ...intent, destinationRouter: sponsor.address }],
      ['other destination venue', permit, { ...intent, destinationVenue: b.bridge.address }],
      ['other path', permit, { ...intent, path: [b.tokens.USDC.address, b.tokens.WETH.address] }],
      ['longer path', permit, { ...intent, path: [...intent.path, b.tokens.WETH.address] }],
      ['lower minimum out', permit, { ...intent, amountOutMin: 0n }],
      ['other recipient', permit, { ...intent, recipient: sponsor.address }],
      ['unwrap', permit, { ...intent, unwrapNative: true }],
      ['later intent deadline', permit, { ...intent, deadline: intent.deadline + 1n }],
      [
        'an integrator fee',
        permit,
        { ...intent, integratorFees: [{ recipient: sponsor.address, amount: 1n }] },
      ],
      ['later permit deadline', { ...permit, deadline: permit.deadline + 1n }, intent],
      ['other nonce', { ...permit, nonce: permit.nonce + 1n }, intent],
      ['other owner', permit, intent, bystander.address],
    ];
    for (const [what, p, i, from] of tampered) {
      expect([what, await attempt(p, i, from)]).toEqual([what, 'InvalidSigner']);
    }
    // Refused before Permit2: the router's own checks of what it would act on.
    expect(await attempt(permit, { ...intent, recipient: intent.destinationRouter })).toBe(
      'InvalidRecipient',
    );
    expect(await attempt(permit, { ...intent, path: [b.tokens.USDC.address] })).toBe('InvalidPath');
    expect(await attempt({ ...permit, permitted: { token: a.tokens.DAI.address, amount } }, intent)).toBe(
      'TokenMismatch',
    );

    expect(await attempt(permit, intent)).toBe('accepted');
    await deposit(call);
    expect(await attempt(permit, intent)).toBe('InvalidNonce');
    await relayer.pollOnce();
    expect(await providerA.getBalance(owner.address)).toBe(0n);
  });

  it('a swap that cannot meet amountOutMin pays the recipient the bridged USDC instead (SwapFailed); so does a deadline passed before the release (Expired)', async () => {
    const owner = await freshOwner();
    const amount = parseUnits('100', 6);
    const path = [b.tokens.USDC.address, b.tokens.DAI.address];
    const greedy = Wallet.createRandom().address;
    const tooMuch = (await quoteOnB(afterFee(amount), path)) * 2n;
    const unmet = await signedBridgeSwap(owner, amount, {
      venue: a.bridge.address,
      destinationChainId: b.chainId,
      destinationRouter: b.permits.permitRouter,
      destinationVenue: b.uniswapV2.router,
      path,
      amountOutMin: tooMuch,
      recipient: greedy,
      unwrapNative: false,
      deadline: await inAnHour(),
    });
    const { bridgeNonce: unmetNonce } = await deposit(unmet.call);

    // Signed with a deadline two minutes away; devnet-b's clock then passes it before the release.
    const late = Wallet.createRandom().address;
    const soon = (await inAnHour()) - 3600n + 120n;
    const expiring = await signedBridgeSwap(owner, amount, {
      venue: a.bridge.address,
      destinationChainId: b.chainId,
      destinationRouter: b.permits.permitRouter,
      destinationVenue: b.uniswapV2.router,
      path,
      amountOutMin: 1n,
      recipient: late,
      unwrapNative: false,
      deadline: soon,
    });
    const { bridgeNonce: lateNonce } = await deposit(expiring.call);
    await providerB.send('evm_increaseTime', [600]);
    await providerB.send('evm_mine', []);

    await relayer.pollOnce();

    expect(await balanceB('USDC', greedy)).toBe(afterFee(amount));
    expect(await balanceB('DAI', greedy)).toBe(0n);
    expect(await settlementOf(unmetNonce)).toMatchObject({
      recipient: greedy,
      tokenOut: b.tokens.USDC.address,
      amountIn: afterFee(amount),
      amountOut: afterFee(amount),
      outcome: 'swap-failed',
    });
    expect(await balanceB('USDC', late)).toBe(afterFee(amount));
    expect(await balanceB('DAI', late)).toBe(0n);
    expect((await settlementOf(lateNonce)).outcome).toBe('expired');
    expect(await balanceB('USDC', b.permits.permitRouter)).toBe(0n);
    expect(await tokenB('USDC').allowance(b.permits.permitRouter, b.uniswapV2.router)).toBe(0n);
    // Released once each: the next round pays nothing more.
    await relayer.pollOnce();
    expect(await balanceB('USDC', greedy)).toBe(afterFee(amount));
    expect(relayerLog.filter((line) => line.level !== 'log')).toEqual([]);
  });

  it('a handler call nobody paid for is ReleaseNotFunded; a caller that pays in its own USDC only swaps its own; a release with too little gas to try the swap reverts instead of paying out USDC', async () => {
    const recipient = Wallet.createRandom().address;
    const message = AbiCoder.defaultAbiCoder().encode(
      [MESSAGE_TUPLE],
      [
        [
          sponsor.address,
          b.uniswapV2.router,
          [b.tokens.USDC.address, b.tokens.DAI.address],
          1n,
          recipient,
          false,
          await inAnHour(),
        ],
      ],
    );
    const outsider = devnetWallet(devnet.manifest.mnemonic, SPONSOR_INDEX, providerB);
    const handler = routerB.connect(outsider) as Contract;
    // The router knows no bridge: it spends only what was paid to it in the same transaction.
    expect(await balanceB('USDC', b.permits.permitRouter)).toBe(0n);
    expect(
      await handler.onBridgeRelease.staticCall(b.tokens.USDC.address, 1n, message).catch(revertName),
    ).toBe('ReleaseNotFunded');
    // An outsider paying in its own USDC first (as a bridge would) swaps that USDC, to the message's
    // recipient, and nothing stays with the router.
    const funder = devnetWallet(devnet.manifest.mnemonic, FUNDER_INDEX, providerB);
    const own = parseUnits('2', 6);
    await (
      await new Contract(b.tokens.USDC.address, ERC20_PERMIT_ABI, funder).transfer(outsider.address, own)
    ).wait();
    await (
      await new Contract(b.tokens.USDC.address, ERC20_PERMIT_ABI, outsider).transfer(
        b.permits.permitRouter,
        own,
      )
    ).wait();
    expect(
      await handler.onBridgeRelease.staticCall(b.tokens.USDC.address, own + 1n, message).catch(revertName),
    ).toBe('ReleaseNotFunded');
    await (await handler.onBridgeRelease(b.tokens.USDC.address, own, message)).wait();
    expect(await balanceB('DAI', recipient)).toBeGreaterThan(0n);
    expect(await balanceB('USDC', b.permits.permitRouter)).toBe(0n);
    // A deposit no one made (source 999): the relayer key may release it; with 200k gas it reverts.
    const args = [999n, 1n, b.permits.permitRouter, parseUnits('1', 6), message] as const;
    expect(
      await bridgeB.releaseWithMessage.staticCall(...args, { gasLimit: 200_000 }).catch(revertName),
    ).toBe('InsufficientGasForSwap');
    expect(await bridgeB.releaseWithMessage.staticCall(...args)).toBe(true);
    // A message the router cannot decode reverts the release: nothing is paid to a handler that cannot settle it.
    await expect(bridgeB.releaseWithMessage.staticCall(...args.slice(0, 4), '0x1234')).rejects.toThrow();
    expect(await bridgeB.released(999n, 1n)).toBe(false);
  });

  it('unwrapNative: the destination swap ends in WETH and the recipient gets native ETH on devnet-b', async () => {
    const owner = await freshOwner();
    const recipient = Wallet.createRandom().address;
    const amount = parseUnits('30', 6);
    const path = [b.tokens.USDC.address, b.tokens.WETH.address];
    const amountOutMin = ((await quoteOnB(afterFee(amount), path)) * 99n) / 100n;
    const { call } = await signedBridgeSwap(owner, amount, {
      venue: a.bridge.address,
      destinationChainId: b.chainId,
      destinationRouter: b.permits.permitRouter,
      destinationVenue: b.uniswapV2.router,
      path,
      amountOutMin,
      recipient,
      unwrapNative: true,
      deadline: await inAnHour(),
    });
    const { bridgeNonce } = await deposit(call);
    await relayer.pollOnce();
    const received = await providerB.getBalance(recipient);
    expect(received).toBeGreaterThanOrEqual(amountOutMin);
    expect(await settlementOf(bridgeNonce)).toMatchObject({
      tokenOut: '0x0000000000000000000000000000000000000000',
      amountOut: received,
      outcome: 'swapped',
    });
    expect(await balanceB('WETH', recipient)).toBe(0n);
    expect(await balanceB('WETH', b.permits.permitRouter)).toBe(0n);
    expect(await providerB.getBalance(b.permits.permitRouter)).toBe(0n);
  });

  it('plain deposits keep their plain release', async () => {
    const funder = devnetWallet(devnet.manifest.mnemonic, FUNDER_INDEX, providerA);
    const recipient = Wallet.createRandom().address;
    const amount = parseUnits('5', 6);
    await (
      await new Contract(a.tokens.USDC.address, ERC20_PERMIT_ABI, funder).approve(a.bridge.address, amount)
    ).wait();
    await (await (bridgeA.connect(funder) as Contract).deposit(amount, BigInt(b.chainId), recipient)).wait();
    await relayer.pollOnce();
    expect(await balanceB('USDC', recipient)).toBe(afterFee(amount));
  });
});
