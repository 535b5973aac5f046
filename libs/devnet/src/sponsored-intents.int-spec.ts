import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BridgeIntent,
  bridgeIntentTypedData,
  bridgeToIntentTypedData,
  eip2612PermitTypedData,
  encodeSponsoredCall,
  ethersTypedDataArgs,
  PERMIT2_WITNESS_TYPE_STRINGS,
  permit2NonceBit,
  randomPermit2Nonce,
  recoverTypedDataSigner,
  SponsoredCall,
  INTEGRATOR_FEE_FIELDS,
  SPONSORED_INTENT_TYPES,
  SwapIntent,
  swapIntentTypedData,
  TypedDataV4,
  relayedGasLimit,
  DEFAULT_RELAYER_GAS_EXTRA,
  evmIntegratorFeeGas,
  SPONSORED_EVM_GAS,
} from '@swapgw/chains';
import { solanaRecipientBytes32 } from '@swapgw/chains/solana-bridge';
import { freePort, waitFor } from '@swapgw/testing';
import {
  Contract,
  HDNodeWallet,
  hexlify,
  id,
  Interface,
  JsonRpcProvider,
  Log,
  MaxUint256,
  parseEther,
  parseUnits,
  randomBytes,
  toQuantity,
  TypedDataEncoder,
  Wallet,
} from 'ethers';
import { devnetWallet } from './accounts';
import {
  DEVNET_BRIDGE_ABI,
  ERC20_PERMIT_ABI,
  PERMIT2_ABI,
  SWAP_GATEWAY_ROUTER_ABI,
  UNISWAP_V2_ROUTER_ABI,
} from './contracts/abis';
import { localProvider } from './evm-provider';
import { DevnetChain, devnetChain } from './manifest';
import { RunningDevnet, startDevnet } from './start-devnet';

/** A funded anvil account no other devnet role uses (0 deploys, 1..9 are users, 10 is the bridge relayer). */
const SPONSOR_INDEX = 11;
/** The devnet user whose USDC and WETH the fresh owners receive. */
const FUNDER_INDEX = 1;

// Gas-sponsored legs on a real devnet chain: a fresh owner that never holds ETH signs typed data,
// the sponsor (the service's relayer) sends every transaction and pays its gas, and whatever the
// sponsor changes in what the owner signed is refused on chain.
describe('devnet sponsored intents: the owner signs, the relayer pays', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-sponsored-'));
  let devnet: RunningDevnet;
  let chain: DevnetChain;
  let provider: JsonRpcProvider;
  let sponsor: HDNodeWallet;
  let router: Contract;
  let permit2: Contract;
  const errors = new Interface(
    [...SWAP_GATEWAY_ROUTER_ABI, ...PERMIT2_ABI].filter((fragment) => fragment.startsWith('error ')),
  );
  const revertName = (error: unknown) => {
    const data = (error as { data?: string }).data;
    if (data === '0x') return 'reverted without data';
    return data ? (errors.parseError(data)?.name ?? data) : (error as Error).message;
  };
  const token = (address: string) => new Contract(address, ERC20_PERMIT_ABI, provider);
  const now = async () => BigInt((await provider.getBlock('latest'))!.timestamp);
  const inAnHour = async () => (await now()) + 3600n;
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
  const routerEvent = (logs: readonly Log[], name: string) =>
    logs
      .filter((log) => log.address === router.target)
      .map((log) => router.interface.parseLog(log))
      .find((parsed) => parsed?.name === name);

  beforeAll(async () => {
    devnet = await startDevnet({
      manifestPath: path.join(workDir, 'manifest.json'),
      portA: await freePort(),
      portB: await freePort(),
    });
    chain = devnetChain(devnet.manifest, 'devnet-a');
    provider = localProvider(chain.rpcUrl, chain.chainId);
    sponsor = devnetWallet(devnet.manifest.mnemonic, SPONSOR_INDEX, provider);
    router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, sponsor);
    permit2 = new Contract(chain.permits.permit2, PERMIT2_ABI, sponsor);
  }, 120_000);

  afterAll(async () => {
    provider?.destroy();
    await devnet?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  /** A new key with no ETH and no history, holding USDC and WETH sent by a devnet user. */
  async function freshOwner(usdc = parseUnits('10000', 6), weth = parseEther('1')): Promise<Wallet> {
    const owner = new Wallet(hexlify(randomBytes(32)), provider);
    const funder = devnetWallet(devnet.manifest.mnemonic, FUNDER_INDEX, provider);
    await (
      await new Contract(chain.tokens.USDC.address, ERC20_PERMIT_ABI, funder).transfer(owner.address, usdc)
    ).wait();
    await (
      await new Contract(chain.tokens.WETH.address, ERC20_PERMIT_ABI, funder).transfer(owner.address, weth)
    ).wait();
    expect(await provider.getBalance(owner.address)).toBe(0n);
    return owner;
  }

  /** The owner signs an EIP-2612 permit of USDC to Permit2 (unlimited); the sponsor submits it. */
  async function permitPermit2ForUsdc(owner: Wallet) {
    const { USDC } = chain.tokens;
    const td = eip2612PermitTypedData({
      chainId: chain.chainId,
      token: USDC.address,
      tokenName: USDC.name,
      version: USDC.permitVersion,
      owner: owner.address,
      spender: chain.permits.permit2,
      value: MaxUint256,
      nonce: (await token(USDC.address).nonces(owner.address)) as bigint,
      deadline: await inAnHour(),
    });
    const signature = await sign(owner, td);
    expect(recoverTypedDataSigner(td, signature)).toBe(owner.address);
    await relay(encodeSponsoredCall(td, owner.address, signature));
  }

  async function signedSwap(
    owner: Wallet,
    amount: bigint,
    intent: SwapIntent,
    tokenIn = chain.tokens.USDC.address,
  ) {
    const nonce = randomPermit2Nonce();
    const deadline = await inAnHour();
    const td = swapIntentTypedData({
      chainId: chain.chainId,
      permit2: chain.permits.permit2,
      router: chain.permits.permitRouter,
      token: tokenIn,
      amount,
      nonce,
      deadline,
      intent,
    });
    const signature = await sign(owner, td);
    const permit = { permitted: { token: tokenIn, amount }, nonce, deadline };
    return { td, signature, permit, nonce, call: encodeSponsoredCall(td, owner.address, signature) };
  }

  it('deploys the router with the witness type strings @swapgw/chains signs with', async () => {
    expect(await router.SWAP_INTENT_WITNESS_TYPE()).toBe(PERMIT2_WITNESS_TYPE_STRINGS.SwapIntent);
    expect(await router.BRIDGE_INTENT_WITNESS_TYPE()).toBe(PERMIT2_WITNESS_TYPE_STRINGS.BridgeIntent);
    expect(await router.BRIDGE_TO_INTENT_WITNESS_TYPE()).toBe(PERMIT2_WITNESS_TYPE_STRINGS.BridgeToIntent);
    expect(await router.SWAP_V3_INTENT_WITNESS_TYPE()).toBe(PERMIT2_WITNESS_TYPE_STRINGS.SwapV3Intent);
    expect(await router.BRIDGE_SWAP_INTENT_WITNESS_TYPE()).toBe(
      PERMIT2_WITNESS_TYPE_STRINGS.BridgeSwapIntent,
    );
  });

  it('an owner without ETH: the relayer submits its USDC permit to Permit2, then its USDC→WETH swap; the owner pays exactly the amount and no gas', async () => {
    const owner = await freshOwner();
    const recipient = Wallet.createRandom().address;
    const { USDC, WETH } = chain.tokens;
    const usdc = token(USDC.address);
    const weth = token(WETH.address);

    await permitPermit2ForUsdc(owner);
    expect(await usdc.allowance(owner.address, chain.permits.permit2)).toBe(MaxUint256);

    const amount = parseUnits('1500', 6);
    const [, quoted] = (await new Contract(
      chain.uniswapV2.router,
      UNISWAP_V2_ROUTER_ABI,
      provider,
    ).getAmountsOut(amount, [USDC.address, WETH.address])) as bigint[];
    const amountOutMin = (quoted * 99n) / 100n;
    const { call, signature, nonce, td } = await signedSwap(owner, amount, {
      venue: chain.uniswapV2.router,
      path: [USDC.address, WETH.address],
      amountOutMin,
      recipient,
      unwrapNative: false,
      deadline: await inAnHour(),
    });
    expect(recoverTypedDataSigner(td, signature)).toBe(owner.address);
    expect(call.to).toBe(chain.permits.permitRouter);
    const usdcBefore = (await usdc.balanceOf(owner.address)) as bigint;

    const receipt = await relay(call);

    expect(usdcBefore - ((await usdc.balanceOf(owner.address)) as bigint)).toBe(amount);
    const received = (await weth.balanceOf(recipient)) as bigint;
    expect(received).toBeGreaterThanOrEqual(amountOutMin);
    expect(await provider.getBalance(owner.address)).toBe(0n);
    expect(await usdc.balanceOf(chain.permits.permitRouter)).toBe(0n);
    expect(await usdc.allowance(chain.permits.permitRouter, chain.uniswapV2.router)).toBe(0n);
    const { wordPos, mask } = permit2NonceBit(nonce);
    expect(((await permit2.nonceBitmap(owner.address, wordPos)) as bigint) & mask).toBe(mask);
    expect(routerEvent(receipt.logs, 'SwapWithIntent')?.args.toArray()).toEqual([
      owner.address,
      USDC.address,
      recipient,
      amount,
      received,
      nonce,
      sponsor.address,
    ]);
  });

  it('whatever the relayer changes (amount, token, venue, path, minimum out, recipient, unwrap, deadlines, nonce, owner) is refused; the signed call goes through once', async () => {
    const owner = await freshOwner();
    const bystander = await freshOwner();
    await permitPermit2ForUsdc(owner);
    await permitPermit2ForUsdc(bystander);
    const { USDC, WETH, DAI } = chain.tokens;
    const amount = parseUnits('100', 6);
    // An integrator fee is part of what the owner signs: 1 USDC of the 100 to a fresh recipient.
    const feeRecipient = Wallet.createRandom().address;
    const fee = { recipient: feeRecipient, amount: parseUnits('1', 6) };
    const intent = {
      venue: chain.uniswapV2.router,
      path: [USDC.address, WETH.address],
      amountOutMin: 1000n,
      recipient: owner.address,
      unwrapNative: false,
      deadline: await inAnHour(),
      integratorFees: [fee],
    };
    const { signature, permit, call } = await signedSwap(owner, amount, intent);
    type Permit = typeof permit;
    const attempt = (p: Permit, i: typeof intent, from = owner.address) =>
      router.swapWithIntent.staticCall(p, from, i, signature).then(
        () => 'accepted',
        (error: unknown) => revertName(error),
      );
    // The library encodes exactly the router's ABI.
    expect(call.data).toBe(
      router.interface.encodeFunctionData('swapWithIntent', [permit, owner.address, intent, signature]),
    );

    const tampered: [string, Permit, typeof intent, string?][] = [
      ['more', { ...permit, permitted: { ...permit.permitted, amount: amount + 1n } }, intent],
      ['less', { ...permit, permitted: { ...permit.permitted, amount: amount - 1n } }, intent],
      ['other venue', permit, { ...intent, venue: chain.bridge.address }],
      ['other path', permit, { ...intent, path: [USDC.address, DAI.address] }],
      ['lower minimum out', permit, { ...intent, amountOutMin: 0n }],
      ['other recipient', permit, { ...intent, recipient: sponsor.address }],
      ['unwrap', permit, { ...intent, unwrapNative: true }],
      ['later intent deadline', permit, { ...intent, deadline: intent.deadline + 1n }],
      ['later permit deadline', { ...permit, deadline: permit.deadline + 1n }, intent],
      ['other nonce', { ...permit, nonce: permit.nonce + 1n }, intent],
      ['other owner', permit, intent, bystander.address],
      ['higher fee', permit, { ...intent, integratorFees: [{ ...fee, amount: fee.amount + 1n }] }],
      [
        'other fee recipient',
        permit,
        { ...intent, integratorFees: [{ ...fee, recipient: sponsor.address }] },
      ],
      ['fee dropped', permit, { ...intent, integratorFees: [] }],
      ['fee added', permit, { ...intent, integratorFees: [fee, { ...fee, recipient: sponsor.address }] }],
    ];
    for (const [what, p, i, from] of tampered) {
      expect([what, await attempt(p, i, from)]).toEqual([what, 'InvalidSigner']);
    }
    // Another token in both the permit and the path: still not what was signed.
    expect(
      await attempt(
        { ...permit, permitted: { token: DAI.address, amount } },
        { ...intent, path: [DAI.address, WETH.address] },
      ),
    ).toBe('InvalidSigner');
    // A path that does not start with the permitted token never reaches Permit2.
    expect(await attempt(permit, { ...intent, path: [DAI.address, WETH.address] })).toBe('TokenMismatch');
    // Using the signature on Permit2 directly, to pay itself: the signed spender is the router.
    const witness = TypedDataEncoder.hashStruct(
      'SwapIntent',
      {
        SwapIntent: SPONSORED_INTENT_TYPES.SwapIntent.map((field) => ({ ...field })),
        IntegratorFee: INTEGRATOR_FEE_FIELDS.map((field) => ({ ...field })),
      },
      intent,
    );
    const direct = await permit2.permitWitnessTransferFrom
      .staticCall(
        permit,
        { to: sponsor.address, requestedAmount: amount },
        owner.address,
        witness,
        PERMIT2_WITNESS_TYPE_STRINGS.SwapIntent,
        signature,
      )
      .then(
        () => 'accepted',
        (error: unknown) => revertName(error),
      );
    expect(direct).toBe('InvalidSigner');

    expect(await attempt(permit, intent)).toBe('accepted');
    const relayed = await relay(call);
    // The fee left the pulled 100 USDC in the same transaction, to exactly the signed recipient.
    expect(await token(USDC.address).balanceOf(feeRecipient)).toBe(fee.amount);
    expect(
      relayed.logs.some((log) => log.topics[0] === id('IntegratorFeePaid(address,address,address,uint256)')),
    ).toBe(true);
    expect(await attempt(permit, intent)).toBe('InvalidNonce');
    await expect(sponsor.sendTransaction({ to: call.to, data: call.data })).rejects.toMatchObject({
      data: errors.getError('InvalidNonce')!.selector,
    });
    expect(await provider.getBalance(owner.address)).toBe(0n);
  });

  it('each integrator fee recipient (a fresh account) costs the router call at most what the sponsored gas table counts for it', async () => {
    const owner = await freshOwner();
    await permitPermit2ForUsdc(owner);
    const { USDC, WETH } = chain.tokens;
    const amount = parseUnits('100', 6);
    const feeTo = () => ({ recipient: Wallet.createRandom().address, amount: parseUnits('1', 6) });
    // The same swap with 0, 1 and 2 fees, each call estimated on the same state (none is sent): at
    // one block, since a block mined between two estimates changes what the pair's update writes.
    const blockTag = await provider.getBlockNumber();
    const gasWith = async (fees: number) => {
      const { call } = await signedSwap(owner, amount, {
        venue: chain.uniswapV2.router,
        path: [USDC.address, WETH.address],
        amountOutMin: 1000n,
        recipient: owner.address,
        unwrapNative: false,
        deadline: await inAnHour(),
        integratorFees: Array.from({ length: fees }, feeTo),
      });
      const request = { from: sponsor.address, to: call.to, data: call.data, value: BigInt(call.value) };
      // eth_estimateGas at that block (ethers' estimateGas always asks at the latest).
      return BigInt(
        await provider.send('eth_estimateGas', [provider.getRpcTransaction(request), toQuantity(blockTag)]),
      );
    };
    const [none, one, two] = [await gasWith(0), await gasWith(1), await gasWith(2)];
    // The table's figure for the call itself is an upper one too.
    expect(none).toBeLessThanOrEqual(SPONSORED_EVM_GAS.swapIntent);
    expect(one - none).toBeLessThanOrEqual(evmIntegratorFeeGas(1, false));
    expect(two - one).toBeLessThanOrEqual(evmIntegratorFeeGas(2, false) - evmIntegratorFeeGas(1, false));
    // A transfer to a fresh account writes its balance from zero: most of the figure is spent.
    expect(two - one).toBeGreaterThan(20_000n);
  });

  it('a permit past its deadline is SignatureExpired, an intent past its deadline IntentExpired; neither uses the nonce', async () => {
    const owner = await freshOwner();
    await permitPermit2ForUsdc(owner);
    const { USDC, WETH } = chain.tokens;
    const amount = parseUnits('10', 6);
    const past = (await now()) - 60n;
    const intent = {
      venue: chain.uniswapV2.router,
      path: [USDC.address, WETH.address],
      amountOutMin: 1n,
      recipient: owner.address,
      unwrapNative: false,
      deadline: await inAnHour(),
    };

    const nonce = randomPermit2Nonce();
    const td = swapIntentTypedData({
      chainId: chain.chainId,
      permit2: chain.permits.permit2,
      router: chain.permits.permitRouter,
      token: USDC.address,
      amount,
      nonce,
      deadline: past,
      intent,
    });
    const expiredPermit = encodeSponsoredCall(td, owner.address, await sign(owner, td));
    expect(await provider.call({ ...expiredPermit, from: sponsor.address }).catch(revertName)).toBe(
      'SignatureExpired',
    );

    const expiredIntent = await signedSwap(owner, amount, { ...intent, deadline: past });
    expect(await provider.call({ ...expiredIntent.call, from: sponsor.address }).catch(revertName)).toBe(
      'IntentExpired',
    );

    for (const used of [nonce, expiredIntent.nonce]) {
      const { wordPos, mask } = permit2NonceBit(used);
      expect(((await permit2.nonceBitmap(owner.address, wordPos)) as bigint) & mask).toBe(0n);
    }
  });

  it('WETH (no permit): one approve of Permit2 while the owner had gas; afterwards WETH→USDC and USDC→native ETH legs are sponsored', async () => {
    const owner = await freshOwner();
    const { USDC, WETH } = chain.tokens;
    // WETH9 has no EIP-2612 permit, so the owner gives Permit2 its allowance with one approve, the
    // only transaction it ever sends. The test lends it ETH for that transaction (anvil_setBalance)
    // and drains its balance back to exactly zero before any sponsored call, so every later fee is
    // provably the relayer's.
    await provider.send('anvil_setBalance', [owner.address, '0x' + parseEther('1').toString(16)]);
    await (
      await new Contract(WETH.address, ERC20_PERMIT_ABI, owner).approve(chain.permits.permit2, MaxUint256)
    ).wait();
    await provider.send('anvil_setBalance', [owner.address, '0x0']);
    expect(await provider.getBalance(owner.address)).toBe(0n);
    await permitPermit2ForUsdc(owner);

    const wethIn = parseEther('0.25');
    const usdcBefore = (await token(USDC.address).balanceOf(owner.address)) as bigint;
    const wethToUsdc = await signedSwap(
      owner,
      wethIn,
      {
        venue: chain.uniswapV2.router,
        path: [WETH.address, USDC.address],
        amountOutMin: 1n,
        recipient: owner.address,
        unwrapNative: false,
        deadline: await inAnHour(),
      },
      WETH.address,
    );
    await relay(wethToUsdc.call);
    expect(parseEther('1') - ((await token(WETH.address).balanceOf(owner.address)) as bigint)).toBe(wethIn);
    expect((await token(USDC.address).balanceOf(owner.address)) as bigint).toBeGreaterThan(usdcBefore);

    const ethRecipient = Wallet.createRandom().address;
    const usdcIn = parseUnits('300', 6);
    const [, quoted] = (await new Contract(
      chain.uniswapV2.router,
      UNISWAP_V2_ROUTER_ABI,
      provider,
    ).getAmountsOut(usdcIn, [USDC.address, WETH.address])) as bigint[];
    const toEth = await signedSwap(owner, usdcIn, {
      venue: chain.uniswapV2.router,
      path: [USDC.address, WETH.address],
      amountOutMin: quoted,
      recipient: ethRecipient,
      unwrapNative: true,
      deadline: await inAnHour(),
    });
    await relay(toEth.call);
    expect(await provider.getBalance(ethRecipient)).toBe(quoted);
    expect(await provider.getBalance(owner.address)).toBe(0n);
    expect(await token(WETH.address).balanceOf(chain.permits.permitRouter)).toBe(0n);
  });

  it('bridgeWithIntent pays the signed integrator fee and deposits the rest for the signed recipient and destination (none of which the relayer can change); bridgeToWithIntent to a Solana key', async () => {
    const owner = await freshOwner();
    await permitPermit2ForUsdc(owner);
    const to = devnetChain(devnet.manifest, 'devnet-b');
    const recipient = Wallet.createRandom().address;
    const feeRecipient = Wallet.createRandom().address;
    const amount = parseUnits('500', 6);
    const fee = parseUnits('1.5', 6);
    const net = amount - fee;
    const bridge = new Contract(chain.bridge.address, DEVNET_BRIDGE_ABI, provider);
    const signBridge = async (intent: BridgeIntent, tokenAddress = chain.tokens.USDC.address) => {
      const nonce = randomPermit2Nonce();
      const deadline = await inAnHour();
      const td = bridgeIntentTypedData({
        chainId: chain.chainId,
        permit2: chain.permits.permit2,
        router: chain.permits.permitRouter,
        token: tokenAddress,
        amount,
        nonce,
        deadline,
        intent,
      });
      const signature = await sign(owner, td);
      return {
        permit: { permitted: { token: tokenAddress, amount }, nonce, deadline },
        signature,
        nonce,
        call: encodeSponsoredCall(td, owner.address, signature),
      };
    };
    const intent = {
      venue: chain.bridge.address,
      destinationChainId: BigInt(to.chainId),
      recipient,
      deadline: await inAnHour(),
      integratorFees: [{ recipient: feeRecipient, amount: fee }],
    };
    const signed = await signBridge(intent);
    const attempt = (i: typeof intent) =>
      router.bridgeWithIntent
        .staticCall(
          signed.permit,
          owner.address,
          { ...i, integratorFees: i.integratorFees.map((f) => [f.recipient, f.amount]) },
          signed.signature,
        )
        .catch(revertName);
    expect(await attempt({ ...intent, recipient: sponsor.address })).toBe('InvalidSigner');
    expect(await attempt({ ...intent, integratorFees: [{ recipient: sponsor.address, amount: fee }] })).toBe(
      'InvalidSigner',
    );
    expect(await attempt({ ...intent, integratorFees: [] })).toBe('InvalidSigner');
    // Another venue: Router02 is no bridge (it has no token()), so the router reverts before Permit2.
    expect(await attempt({ ...intent, venue: chain.uniswapV2.router })).toBe('reverted without data');
    expect(
      await attempt({ ...intent, destinationChainId: BigInt(devnet.manifest.solana.bridge.chainId) }),
    ).toBe('InvalidSigner');
    const dai = await signBridge(intent, chain.tokens.DAI.address);
    expect(await provider.call({ ...dai.call, from: sponsor.address }).catch(revertName)).toBe(
      'TokenMismatch',
    );

    const providerB = localProvider(to.rpcUrl, to.chainId);
    const usdcOnB = new Contract(to.tokens.USDC.address, ERC20_PERMIT_ABI, providerB);
    const arrivedBefore = (await usdcOnB.balanceOf(recipient)) as bigint;
    const receipt = await relay(signed.call);
    const deposit = receipt.logs
      .filter((log) => log.address === chain.bridge.address)
      .map((log) => bridge.interface.parseLog(log))
      .find((parsed) => parsed?.name === 'Deposit');
    const amountAfterFee = net - (net * BigInt(devnet.manifest.bridge.feeBps)) / 10_000n;
    const [bridgeNonce, sender, depositRecipient, destinationChainId, depositAmount, depositAfterFee] =
      deposit!.args.toArray() as [bigint, string, string, bigint, bigint, bigint];
    expect([sender, depositRecipient, destinationChainId, depositAmount, depositAfterFee]).toEqual([
      chain.permits.permitRouter,
      recipient,
      BigInt(to.chainId),
      net,
      amountAfterFee,
    ]);
    expect(routerEvent(receipt.logs, 'DepositWithIntent')?.args.toArray()).toEqual([
      owner.address,
      bridgeNonce,
      BigInt(to.chainId),
      net,
      signed.nonce,
      sponsor.address,
    ]);
    expect(routerEvent(receipt.logs, 'IntegratorFeePaid')?.args.toArray()).toEqual([
      feeRecipient,
      chain.tokens.USDC.address,
      owner.address,
      fee,
    ]);
    const usdcOnA = new Contract(chain.tokens.USDC.address, ERC20_PERMIT_ABI, provider);
    expect(await usdcOnA.balanceOf(feeRecipient)).toBe(fee);
    expect(await usdcOnA.balanceOf(chain.permits.permitRouter)).toBe(0n);
    expect(await provider.getBalance(owner.address)).toBe(0n);
    try {
      await waitFor(
        async () => ((await usdcOnB.balanceOf(recipient)) as bigint) - arrivedBefore === amountAfterFee,
        {
          timeoutMs: devnet.manifest.bridge.estimatedDurationSeconds * 1000 + 5000,
          intervalMs: 200,
          description: 'the sponsored deposit to arrive on devnet-b',
        },
      );
    } finally {
      providerB.destroy();
    }

    const solanaRecipient = solanaRecipientBytes32(devnet.manifest.solana.accounts[0].address);
    const toSolana = bridgeToIntentTypedData({
      chainId: chain.chainId,
      permit2: chain.permits.permit2,
      router: chain.permits.permitRouter,
      token: chain.tokens.USDC.address,
      amount,
      nonce: randomPermit2Nonce(),
      deadline: await inAnHour(),
      intent: {
        venue: chain.bridge.address,
        destinationChainId: devnet.manifest.solana.bridge.chainId,
        recipient: solanaRecipient,
        deadline: await inAnHour(),
      },
    });
    const solanaReceipt = await relay(
      encodeSponsoredCall(toSolana, owner.address, await sign(owner, toSolana)),
    );
    const depositTo = solanaReceipt.logs
      .map((log) => (log.address === chain.bridge.address ? bridge.interface.parseLog(log) : null))
      .find((parsed) => parsed?.name === 'DepositTo');
    expect([depositTo?.args.recipient, depositTo?.args.destinationChainId, depositTo?.args.amount]).toEqual([
      solanaRecipient,
      BigInt(devnet.manifest.solana.bridge.chainId),
      amount,
    ]);
  });

  it('bridgeToWithIntent pays the signed integrator fees and deposits the rest with depositTo for the signed 32-byte recipient; a relayer that changes a fee is refused', async () => {
    const owner = await freshOwner();
    await permitPermit2ForUsdc(owner);
    const bridge = new Contract(chain.bridge.address, DEVNET_BRIDGE_ABI, provider);
    const usdc = token(chain.tokens.USDC.address);
    const [feeA, feeB] = [Wallet.createRandom().address, Wallet.createRandom().address];
    const amount = parseUnits('250', 6);
    const fees = [
      { recipient: feeA, amount: parseUnits('0.75', 6) },
      { recipient: feeB, amount: parseUnits('0.25', 6) },
    ];
    const net = amount - parseUnits('1', 6);
    const solanaRecipient = solanaRecipientBytes32(devnet.manifest.solana.accounts[1].address);
    const nonce = randomPermit2Nonce();
    const deadline = await inAnHour();
    const intent = {
      venue: chain.bridge.address,
      destinationChainId: BigInt(devnet.manifest.solana.bridge.chainId),
      recipient: solanaRecipient,
      deadline,
      integratorFees: fees,
    };
    const td = bridgeToIntentTypedData({
      chainId: chain.chainId,
      permit2: chain.permits.permit2,
      router: chain.permits.permitRouter,
      token: chain.tokens.USDC.address,
      amount,
      nonce,
      deadline,
      intent,
    });
    const signature = await sign(owner, td);
    const attempt = (integratorFees: typeof fees) =>
      router.bridgeToWithIntent
        .staticCall(
          { permitted: { token: chain.tokens.USDC.address, amount }, nonce, deadline },
          owner.address,
          { ...intent, integratorFees: integratorFees.map((f) => [f.recipient, f.amount]) },
          signature,
        )
        .catch(revertName);
    // Redirected, raised, dropped, or one of two left out: not what the owner signed.
    expect(await attempt([{ ...fees[0], recipient: sponsor.address }, fees[1]])).toBe('InvalidSigner');
    expect(await attempt([{ ...fees[0], amount: fees[0].amount + 1n }, fees[1]])).toBe('InvalidSigner');
    expect(await attempt([])).toBe('InvalidSigner');
    expect(await attempt([fees[0]])).toBe('InvalidSigner');

    const ownerBefore = (await usdc.balanceOf(owner.address)) as bigint;
    const receipt = await relay(encodeSponsoredCall(td, owner.address, signature));
    const depositTo = receipt.logs
      .map((log) => (log.address === chain.bridge.address ? bridge.interface.parseLog(log) : null))
      .find((parsed) => parsed?.name === 'DepositTo');
    expect([depositTo?.args.recipient, depositTo?.args.destinationChainId, depositTo?.args.amount]).toEqual([
      solanaRecipient,
      BigInt(devnet.manifest.solana.bridge.chainId),
      net,
    ]);
    expect(routerEvent(receipt.logs, 'DepositWithIntent')?.args.amount).toBe(net);
    const paid = receipt.logs
      .filter((log) => log.address === router.target)
      .map((log) => router.interface.parseLog(log))
      .filter((parsed) => parsed?.name === 'IntegratorFeePaid')
      .map((parsed) => parsed!.args.toArray());
    expect(paid).toEqual(fees.map((f) => [f.recipient, chain.tokens.USDC.address, owner.address, f.amount]));
    expect(await usdc.balanceOf(feeA)).toBe(fees[0].amount);
    expect(await usdc.balanceOf(feeB)).toBe(fees[1].amount);
    expect(ownerBefore - ((await usdc.balanceOf(owner.address)) as bigint)).toBe(amount);
    expect(await usdc.balanceOf(chain.permits.permitRouter)).toBe(0n);
    expect(await provider.getBalance(owner.address)).toBe(0n);
  });
});
