import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Contract,
  ContractTransactionResponse,
  hexlify,
  id,
  JsonRpcProvider,
  Log,
  LogDescription,
  MaxUint256,
  parseUnits,
  randomBytes,
  Signature,
  type Signer,
  TypedDataEncoder,
  Wallet,
  ZeroAddress,
} from 'ethers';
import {
  CANONICAL_PERMIT2,
  loadEvmArtifacts,
  swapGatewayRouterAddress,
  verifySwapGatewayRouter,
} from '@swapgw/evm-contracts';
import { BITCOIN_BRIDGE_CHAIN_ID } from '@swapgw/chains/bitcoin-bridge';
import { SOLANA_BRIDGE_CHAIN_ID } from '@swapgw/chains/solana-bridge';
import { freePort, waitFor } from '@swapgw/testing';
import { devnetWallet } from './accounts';
import { GasHeadroomSigner } from './gas-headroom';
import {
  DEVNET_BRIDGE_DEPOSIT_TO_ABI,
  ERC20_PERMIT_ABI,
  PERMIT2_ABI,
  SWAP_GATEWAY_ROUTER_ABI,
  UNISWAP_V2_ROUTER_ABI,
} from './contracts/abis';
import {
  eip2612PermitTypedData,
  PERMIT2_TRANSFER_FROM_TYPES,
  permit2TransferTypedData,
} from './contracts/permit-typed-data';
import { TAXED_TOKEN } from './devnet-parameters';
import { localProvider } from './evm-provider';
import { DevnetChain, devnetChain } from './manifest';
import { RunningDevnet, startDevnet } from './start-devnet';

const EIP2612 = 0;
const PERMIT2 = 1;

// Permit2 and the SwapGatewayRouter on a devnet of their own: what a wallet signs with ethers is
// what the contracts accept, the leg happens in the permit's transaction, nothing stays behind.
describe('devnet permits: Permit2 and SwapGatewayRouter', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-permits-'));
  let devnet: RunningDevnet;
  const providers: JsonRpcProvider[] = [];
  const provider = (chain: DevnetChain) => {
    const p = localProvider(chain.rpcUrl, chain.chainId);
    providers.push(p);
    return p;
  };
  const chainA = () => devnetChain(devnet.manifest, 'devnet-a');
  // Test wallets send with headroom over their gas estimate, as wallets do (gas-headroom.ts).
  const wallet = (index: number, chain = chainA()) =>
    new GasHeadroomSigner(devnetWallet(devnet.manifest.mnemonic, index, provider(chain)));
  const inAnHour = () => BigInt(Math.floor(Date.now() / 1000) + 3600);
  /** The router's FeeSwap tuple: venue, amountIn (fees included), minimum out, recipient, unwrap, deadline. */
  const feeSwap = (
    venue: string,
    amountIn: bigint,
    amountOutMin: bigint,
    recipient: string,
    unwrapNative = false,
  ) => [venue, amountIn, amountOutMin, recipient, unwrapNative, inAnHour()];
  const errorName = (contract: Contract, error: unknown) => {
    const data = (error as { data?: string }).data;
    return data ? contract.interface.parseError(data)?.name : (error as Error).message;
  };

  beforeAll(async () => {
    devnet = await startDevnet({
      manifestPath: path.join(workDir, 'manifest.json'),
      portA: await freePort(),
      portB: await freePort(),
    });
    // A whole devnet on a CI machine that may be busy with the e2e lane (over 60 s seen).
  }, 180_000);

  afterAll(async () => {
    providers.forEach((p) => p.destroy());
    await devnet?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  async function signPermit2(
    owner: Signer,
    chain: DevnetChain,
    token: string,
    amount: bigint,
    nonce: bigint,
    deadline = inAnHour(),
  ) {
    const typed = permit2TransferTypedData({
      chainId: chain.chainId,
      permit2: chain.permits.permit2,
      token,
      amount,
      spender: chain.permits.permitRouter,
      nonce,
      deadline,
    });
    return { signature: await owner.signTypedData(typed.domain, typed.types, typed.message), deadline };
  }

  it.each(['devnet-a', 'devnet-b'])(
    'deploys Permit2 at its canonical address and the router at its CREATE2 address on %s, the same as on every chain',
    async (chainId) => {
      const chain = devnetChain(devnet.manifest, chainId);
      const p = provider(chain);
      const artifacts = loadEvmArtifacts();
      expect(chain.permits.permit2).toBe(CANONICAL_PERMIT2);
      expect(chain.permits.permitRouter).toBe(swapGatewayRouterAddress(artifacts));
      const router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, p);
      expect(await router.permit2()).toBe(chain.permits.permit2);
      await expect(verifySwapGatewayRouter(p, artifacts)).resolves.toBeUndefined();
      // The EIP-712 domain is Permit2's: name "Permit2", this chain id, this contract, no version.
      const permit2 = new Contract(
        chain.permits.permit2,
        [
          ...PERMIT2_ABI,
          'function PERMIT_TRANSFER_FROM_TYPEHASH() view returns (bytes32)',
          'function TOKEN_PERMISSIONS_TYPEHASH() view returns (bytes32)',
        ],
        p,
      );
      expect(await permit2.DOMAIN_SEPARATOR()).toBe(
        TypedDataEncoder.hashDomain({
          name: 'Permit2',
          chainId: chain.chainId,
          verifyingContract: chain.permits.permit2,
        }),
      );
      const encoder = TypedDataEncoder.from(PERMIT2_TRANSFER_FROM_TYPES);
      expect(encoder.encodeType('PermitTransferFrom')).toBe(
        'PermitTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline)TokenPermissions(address token,uint256 amount)',
      );
      expect(await permit2.PERMIT_TRANSFER_FROM_TYPEHASH()).toBe(
        id(encoder.encodeType('PermitTransferFrom')),
      );
      expect(await permit2.TOKEN_PERMISSIONS_TYPEHASH()).toBe(id(encoder.encodeType('TokenPermissions')));
    },
  );

  it('EIP-2612: one transaction pulls USDC with the permit and swaps it to the recipient; no allowance or token stays', async () => {
    const chain = chainA();
    const user = wallet(1);
    // A recipient of its own: other suites share the devnet's accounts and pools meanwhile.
    const recipient = Wallet.createRandom().address;
    const { USDC, WETH } = chain.tokens;
    const usdc = new Contract(USDC.address, ERC20_PERMIT_ABI, user);
    const weth = new Contract(WETH.address, ERC20_PERMIT_ABI, user);
    const router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, user);
    const amountIn = parseUnits('1500', 6);
    const [, quoted] = (await new Contract(chain.uniswapV2.router, UNISWAP_V2_ROUTER_ABI, user).getAmountsOut(
      amountIn,
      [USDC.address, WETH.address],
    )) as bigint[];
    // Another suite may swap in the same pool between the read and the send: 1 % of room.
    const amountOutMin = (quoted * 99n) / 100n;
    const typed = eip2612PermitTypedData({
      chainId: chain.chainId,
      token: USDC,
      owner: user.address,
      spender: chain.permits.permitRouter,
      value: amountIn,
      nonce: (await usdc.nonces(user.address)) as bigint,
      deadline: inAnHour(),
    });
    const signature = await user.signTypedData(typed.domain, typed.types, typed.message);
    const [usdcBefore, wethBefore] = [
      (await usdc.balanceOf(user.address)) as bigint,
      (await weth.balanceOf(recipient)) as bigint,
    ];

    const sent = (await router.swapWithFees(
      feeSwap(chain.uniswapV2.router, amountIn, amountOutMin, recipient),
      [USDC.address, WETH.address],
      [],
      [EIP2612, 0n, typed.message.deadline, signature],
    )) as ContractTransactionResponse;
    const receipt = await sent.wait();

    expect(receipt!.status).toBe(1);
    expect(usdcBefore - ((await usdc.balanceOf(user.address)) as bigint)).toBe(amountIn);
    const received = ((await weth.balanceOf(recipient)) as bigint) - wethBefore;
    expect(received).toBeGreaterThanOrEqual(amountOutMin);
    expect(await usdc.allowance(user.address, chain.permits.permitRouter)).toBe(0n);
    expect(await usdc.balanceOf(chain.permits.permitRouter)).toBe(0n);
    expect(await usdc.allowance(chain.permits.permitRouter, chain.uniswapV2.router)).toBe(0n);
    const event = receipt!.logs
      .map((log: Log) => router.interface.parseLog(log))
      .find((parsed) => parsed?.name === 'SwapWithPermit');
    expect(event?.args.toArray()).toEqual([
      user.address,
      USDC.address,
      recipient,
      amountIn,
      received,
      BigInt(EIP2612),
    ]);
  });

  it('EIP-2612: a permit someone else submitted first does not brick the swap; a permit signed by another key is PermitRejected', async () => {
    const chain = chainA();
    const user = wallet(3);
    const frontRunner = wallet(4);
    const { DAI, WETH } = chain.tokens;
    const dai = new Contract(DAI.address, ERC20_PERMIT_ABI, user);
    const router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, user);
    const amountIn = parseUnits('100', 18);
    const deadline = inAnHour();
    const typed = eip2612PermitTypedData({
      chainId: chain.chainId,
      token: DAI,
      owner: user.address,
      spender: chain.permits.permitRouter,
      value: amountIn,
      nonce: (await dai.nonces(user.address)) as bigint,
      deadline,
    });
    const sig = Signature.from(await user.signTypedData(typed.domain, typed.types, typed.message));
    await (
      await new Contract(DAI.address, ERC20_PERMIT_ABI, frontRunner).permit(
        user.address,
        chain.permits.permitRouter,
        amountIn,
        deadline,
        sig.v,
        sig.r,
        sig.s,
      )
    ).wait();

    const compact = sig.r + sig.yParityAndS.slice(2); // EIP-2098, 64 bytes
    await (
      await router.swapWithFees(
        feeSwap(chain.uniswapV2.router, amountIn, 1n, user.address, true),
        [DAI.address, WETH.address],
        [],
        [EIP2612, 0n, deadline, compact],
      )
    ).wait();
    expect(await dai.allowance(user.address, chain.permits.permitRouter)).toBe(0n);

    const forged = await frontRunner.signTypedData(typed.domain, typed.types, {
      ...typed.message,
      nonce: (await dai.nonces(user.address)) as bigint,
    });
    const refused = await router.swapWithFees
      .staticCall(
        feeSwap(chain.uniswapV2.router, amountIn, 1n, user.address, true),
        [DAI.address, WETH.address],
        [],
        [EIP2612, 0n, deadline, forged],
      )
      .catch((error: unknown) => error);
    expect(errorName(router, refused)).toBe('PermitRejected');
  });

  it('Permit2: after one approve of Permit2, a signed transfer (65 or 64 bytes) swaps in one transaction; nonces are single use', async () => {
    const chain = chainA();
    const user = wallet(5);
    const { USDC, DAI } = chain.tokens;
    const usdc = new Contract(USDC.address, ERC20_PERMIT_ABI, user);
    const dai = new Contract(DAI.address, ERC20_PERMIT_ABI, user);
    const router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, user);
    const permit2 = new Contract(chain.permits.permit2, PERMIT2_ABI, user);
    const amountIn = parseUnits('2000', 6);
    const swap = async (nonce: bigint, deadline: bigint, signature: string) => {
      const args = [
        feeSwap(chain.uniswapV2.router, amountIn, 1n, user.address),
        [USDC.address, DAI.address],
        [],
        [PERMIT2, nonce, deadline, signature],
      ];
      // Sent with headroom over the estimate, as every test wallet here sends (gas-headroom.ts).
      return router.swapWithFees(...args);
    };

    const first = await signPermit2(user, chain, USDC.address, amountIn, 7n);
    // Without the owner's allowance to Permit2 the transfer cannot happen.
    expect(
      await swap(7n, first.deadline, first.signature).catch((error: unknown) => (error as Error).message),
    ).toMatch(/revert/);
    await (await usdc.approve(chain.permits.permit2, MaxUint256)).wait();

    const daiBefore = (await dai.balanceOf(user.address)) as bigint;
    await (await swap(7n, first.deadline, first.signature)).wait();
    expect((await dai.balanceOf(user.address)) as bigint).toBeGreaterThan(daiBefore);
    expect(await permit2.nonceBitmap(user.address, 0n)).toBe(1n << 7n);
    expect(await usdc.balanceOf(chain.permits.permitRouter)).toBe(0n);
    expect(errorName(permit2, await swap(7n, first.deadline, first.signature).catch((e: unknown) => e))).toBe(
      'InvalidNonce',
    );

    const nonce = (1n << 8n) + 3n; // word 1, bit 3
    const second = await signPermit2(user, chain, USDC.address, amountIn, nonce);
    const compact = Signature.from(second.signature).compactSerialized;
    await (await swap(nonce, second.deadline, compact)).wait();
    expect(await permit2.nonceBitmap(user.address, 1n)).toBe(1n << 3n);
  });

  it('Permit2: another signer, a past deadline, an invalidated nonce or another amount are refused with Permit2’s errors', async () => {
    const chain = chainA();
    const user = wallet(6);
    const other = wallet(7);
    const { USDC, WETH } = chain.tokens;
    await (
      await new Contract(USDC.address, ERC20_PERMIT_ABI, user).approve(chain.permits.permit2, MaxUint256)
    ).wait();
    const router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, user);
    const permit2 = new Contract(chain.permits.permit2, PERMIT2_ABI, user);
    const amountIn = parseUnits('10', 6);
    const attempt = (amount: bigint, nonce: bigint, deadline: bigint, signature: string) =>
      router.swapWithFees
        .staticCall(
          feeSwap(chain.uniswapV2.router, amount, 1n, user.address),
          [USDC.address, WETH.address],
          [],
          [PERMIT2, nonce, deadline, signature],
        )
        .catch((error: unknown) => errorName(permit2, error));

    const byOther = await signPermit2(other, chain, USDC.address, amountIn, 1n);
    expect(await attempt(amountIn, 1n, byOther.deadline, byOther.signature)).toBe('InvalidSigner');
    const past = BigInt(Math.floor(Date.now() / 1000) - 60);
    const expired = await signPermit2(user, chain, USDC.address, amountIn, 2n, past);
    expect(await attempt(amountIn, 2n, past, expired.signature)).toBe('SignatureExpired');
    const good = await signPermit2(user, chain, USDC.address, amountIn, 3n);
    // The router asks for exactly what it swaps: a signature for 10 USDC does not move 11.
    expect(await attempt(amountIn + 1n, 3n, good.deadline, good.signature)).toBe('InvalidSigner');
    expect(await attempt(amountIn, 3n, good.deadline, good.signature)).toEqual(expect.any(BigInt));
    await (await permit2.invalidateUnorderedNonces(0n, 1n << 3n)).wait();
    expect(await attempt(amountIn, 3n, good.deadline, good.signature)).toBe('InvalidNonce');
  });

  it('Permit2: a bridge deposit in one transaction; the relayer pays the recipient on devnet-b', async () => {
    const chain = chainA();
    const to = devnetChain(devnet.manifest, 'devnet-b');
    const user = wallet(8);
    const recipient = devnetWallet(devnet.manifest.mnemonic, 9).address;
    const usdc = new Contract(chain.tokens.USDC.address, ERC20_PERMIT_ABI, user);
    const usdcOnB = new Contract(to.tokens.USDC.address, ERC20_PERMIT_ABI, provider(to));
    await (await usdc.approve(chain.permits.permit2, MaxUint256)).wait();
    const router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, user);
    const amount = parseUnits('500', 6);
    const expectedOut = amount - (amount * BigInt(devnet.manifest.bridge.feeBps)) / 10_000n;
    const { signature, deadline } = await signPermit2(user, chain, chain.tokens.USDC.address, amount, 42n);
    const before = (await usdcOnB.balanceOf(recipient)) as bigint;

    await (
      await router.depositWithFees(
        [chain.bridge.address, amount, to.chainId, recipient],
        [],
        [PERMIT2, 42n, deadline, signature],
      )
    ).wait();

    expect(await usdc.balanceOf(chain.permits.permitRouter)).toBe(0n);
    await waitFor(async () => ((await usdcOnB.balanceOf(recipient)) as bigint) - before === expectedOut, {
      timeoutMs: devnet.manifest.bridge.estimatedDurationSeconds * 1000 + 2000,
      intervalMs: 100,
      description: 'the bridged USDC to arrive on devnet-b',
    });
  });

  it('integrator fees on a bridge deposit: depositWithFees pulls amount plus the fees (allowance), pays each recipient and bridges the rest', async () => {
    const chain = chainA();
    const to = devnetChain(devnet.manifest, 'devnet-b');
    const user = wallet(2);
    const [first, second, recipient] = [0, 1, 2].map(() => Wallet.createRandom().address);
    const usdc = new Contract(chain.tokens.USDC.address, ERC20_PERMIT_ABI, user);
    const usdcOnB = new Contract(to.tokens.USDC.address, ERC20_PERMIT_ABI, provider(to));
    const router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, user);
    const gross = parseUnits('100', 6);
    const fees = [
      [first, parseUnits('0.3', 6)],
      [second, parseUnits('0.2', 6)],
    ] as const;
    const net = gross - fees[0][1] - fees[1][1];
    await (await usdc.approve(chain.permits.permitRouter, gross)).wait();
    const before = (await usdc.balanceOf(user.address)) as bigint;

    const receipt = await (
      await router.depositWithFees([chain.bridge.address, gross, to.chainId, recipient], fees, [
        2,
        0n,
        0n,
        '0x',
      ])
    ).wait();

    expect(before - ((await usdc.balanceOf(user.address)) as bigint)).toBe(gross);
    expect(await usdc.balanceOf(first)).toBe(fees[0][1]);
    expect(await usdc.balanceOf(second)).toBe(fees[1][1]);
    expect(await usdc.balanceOf(chain.permits.permitRouter)).toBe(0n);
    const paid = receipt!.logs
      .map((log: Log) => router.interface.parseLog(log))
      .flatMap((parsed: LogDescription | null) =>
        parsed?.name === 'IntegratorFeePaid' ? [parsed.args.toArray()] : [],
      );
    expect(paid).toEqual([
      [first, chain.tokens.USDC.address, user.address, fees[0][1]],
      [second, chain.tokens.USDC.address, user.address, fees[1][1]],
    ]);
    const expectedOut = net - (net * BigInt(devnet.manifest.bridge.feeBps)) / 10_000n;
    await waitFor(async () => ((await usdcOnB.balanceOf(recipient)) as bigint) === expectedOut, {
      timeoutMs: devnet.manifest.bridge.estimatedDurationSeconds * 1000 + 2000,
      intervalMs: 100,
      description: 'the bridged USDC (net of the fees) to arrive on devnet-b',
    });
  });

  it.each([
    ['Solana', SOLANA_BRIDGE_CHAIN_ID],
    ['Bitcoin', BITCOIN_BRIDGE_CHAIN_ID],
  ])(
    'integrator fees on a bridge deposit to %s: depositToWithFees pulls amount plus the fee (allowance), pays the recipient and deposits the rest with depositTo for the 32-byte recipient',
    async (_destination, destinationChainId) => {
      const chain = chainA();
      const user = wallet(3);
      const feeRecipient = Wallet.createRandom().address;
      const recipient = hexlify(randomBytes(32));
      const usdc = new Contract(chain.tokens.USDC.address, ERC20_PERMIT_ABI, user);
      const router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, user);
      const bridge = new Contract(chain.bridge.address, DEVNET_BRIDGE_DEPOSIT_TO_ABI, provider(chain));
      const gross = parseUnits('40', 6);
      const fee = parseUnits('0.12', 6);
      const net = gross - fee;
      await (await usdc.approve(chain.permits.permitRouter, gross)).wait();
      // A fee of the whole amount would leave nothing to deposit.
      const feeTooHigh = await router.depositToWithFees
        .staticCall(
          [chain.bridge.address, gross, destinationChainId, recipient],
          [[feeRecipient, gross]],
          [2, 0n, 0n, '0x'],
        )
        .catch((error: unknown) => error);
      expect(errorName(router, feeTooHigh)).toBe('InvalidIntegratorFee');
      const [userBefore, bridgeBefore] = (await Promise.all([
        usdc.balanceOf(user.address),
        usdc.balanceOf(chain.bridge.address),
      ])) as bigint[];

      const receipt = await (
        await router.depositToWithFees(
          [chain.bridge.address, gross, destinationChainId, recipient],
          [[feeRecipient, fee]],
          [2, 0n, 0n, '0x'],
        )
      ).wait();

      expect(userBefore - ((await usdc.balanceOf(user.address)) as bigint)).toBe(gross);
      expect(await usdc.balanceOf(feeRecipient)).toBe(fee);
      expect(((await usdc.balanceOf(chain.bridge.address)) as bigint) - bridgeBefore).toBe(net);
      expect(await usdc.balanceOf(chain.permits.permitRouter)).toBe(0n);
      const parsed = receipt!.logs.flatMap((log: Log) => {
        const event =
          log.address === chain.bridge.address
            ? bridge.interface.parseLog(log)
            : router.interface.parseLog(log);
        return event ? [event] : [];
      });
      expect(
        parsed
          .filter((e: LogDescription) => e.name === 'IntegratorFeePaid')
          .map((e: LogDescription) => e.args.toArray()),
      ).toEqual([[feeRecipient, chain.tokens.USDC.address, user.address, fee]]);
      // The bridge locked the net amount for the 32-byte recipient on the destination.
      const deposit = parsed.find((e: LogDescription) => e.name === 'DepositTo')!;
      expect(deposit.args.recipient).toBe(recipient);
      expect(deposit.args.destinationChainId).toBe(BigInt(destinationChainId));
      expect(deposit.args.amount).toBe(net);
      expect(deposit.args.amountAfterFee).toBe(net - (net * BigInt(devnet.manifest.bridge.feeBps)) / 10_000n);
    },
  );

  it('a taxed token through swapWithFees (allowance), bought then sold with a fee: each fee paid exactly, the pool priced by what it received, amountOut what the recipient received', async () => {
    const chain = chainA();
    const user = wallet(5);
    const feeRecipient = Wallet.createRandom().address;
    const { USDC, TAX } = chain.tokens;
    const router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, user);
    const router02 = new Contract(chain.uniswapV2.router, UNISWAP_V2_ROUTER_ABI, provider(chain));
    const usdc = new Contract(USDC.address, ERC20_PERMIT_ABI, user);
    const tax = new Contract(TAX.address, ERC20_PERMIT_ABI, user);
    const allowance = [2, 0n, 0n, '0x'];
    const afterTax = (amount: bigint, bps: number) => amount - (amount * BigInt(bps)) / 10_000n;
    const swapped = (receipt: { logs: readonly Log[] }) =>
      receipt.logs
        .map((log: Log) => router.interface.parseLog(log))
        .find((parsed: LogDescription | null) => parsed?.name === 'SwapWithPermit')!.args.amountOut as bigint;

    // Buy: 10 USDC, 0.1 to the fee recipient, the rest swapped; the buy tax leaves the pool's output.
    const grossUsdc = parseUnits('10', 6);
    const usdcFee = parseUnits('0.1', 6);
    const [, poolOut] = (await router02.getAmountsOut(grossUsdc - usdcFee, [
      USDC.address,
      TAX.address,
    ])) as bigint[];
    const bought = afterTax(poolOut, TAXED_TOKEN.buyTaxBps);
    await (await usdc.approve(chain.permits.permitRouter, grossUsdc)).wait();
    const tooMuch = await router.swapWithFees
      .staticCall(
        feeSwap(chain.uniswapV2.router, grossUsdc, bought + 1n, user.address),
        [USDC.address, TAX.address],
        [[feeRecipient, usdcFee]],
        allowance,
      )
      .catch((error: unknown) => error);
    // Router02 checks the minimum against what arrived after the tax, not the pool's output.
    expect((tooMuch as Error).message).toMatch(/INSUFFICIENT_OUTPUT_AMOUNT/);
    const buy = await (
      await router.swapWithFees(
        feeSwap(chain.uniswapV2.router, grossUsdc, bought, user.address),
        [USDC.address, TAX.address],
        [[feeRecipient, usdcFee]],
        allowance,
      )
    ).wait();
    expect(await tax.balanceOf(user.address)).toBe(bought);
    expect(swapped(buy!)).toBe(bought);
    expect(await usdc.balanceOf(feeRecipient)).toBe(usdcFee);

    // Sell it all back with a fee in TAX: the fee is a plain transfer (untaxed), the rest is taxed
    // on its way into the pool, which prices what it received.
    const taxFee = bought / 100n;
    const sold = afterTax(bought - taxFee, TAXED_TOKEN.sellTaxBps);
    const [, usdcOut] = (await router02.getAmountsOut(sold, [TAX.address, USDC.address])) as bigint[];
    const usdcBefore = (await usdc.balanceOf(user.address)) as bigint;
    await (await tax.approve(chain.permits.permitRouter, bought)).wait();
    const sell = await (
      await router.swapWithFees(
        feeSwap(chain.uniswapV2.router, bought, usdcOut, user.address),
        [TAX.address, USDC.address],
        [[feeRecipient, taxFee]],
        allowance,
      )
    ).wait();
    expect(((await usdc.balanceOf(user.address)) as bigint) - usdcBefore).toBe(usdcOut);
    expect(swapped(sell!)).toBe(usdcOut);
    expect(await tax.balanceOf(feeRecipient)).toBe(taxFee);
    expect(await tax.balanceOf(user.address)).toBe(0n);
    expect(await tax.balanceOf(chain.permits.permitRouter)).toBe(0n);
  });

  it('integrator fees with native ETH in: swapWithFees sent with a value pays each fee in ETH out of it and swaps the rest; a value other than amountIn is refused', async () => {
    const chain = chainA();
    const user = wallet(3);
    const feeRecipient = Wallet.createRandom().address;
    const recipient = Wallet.createRandom().address;
    const { WETH, USDC } = chain.tokens;
    const router = new Contract(chain.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, user);
    const usdc = new Contract(USDC.address, ERC20_PERMIT_ABI, provider(chain));
    const gross = parseUnits('0.2', 18);
    const fee = parseUnits('0.002', 18);
    const swap = feeSwap(chain.uniswapV2.router, gross, 1n, recipient);
    const path = [WETH.address, USDC.address];
    // Native coin in: no signature and no allowance, the router takes the value.
    const noPermit = [2, 0n, 0n, '0x'];

    const mismatch = await router.swapWithFees
      .staticCall(swap, path, [[feeRecipient, fee]], noPermit, { value: gross - 1n })
      .catch((error: unknown) => error);
    expect(errorName(router, mismatch)).toBe('NativeAmountMismatch');
    const feeTooHigh = await router.swapWithFees
      .staticCall(swap, path, [[feeRecipient, gross]], noPermit, { value: gross })
      .catch((error: unknown) => error);
    expect(errorName(router, feeTooHigh)).toBe('InvalidIntegratorFee');

    const receipt = await (
      await router.swapWithFees(swap, path, [[feeRecipient, fee]], noPermit, { value: gross })
    ).wait();
    expect(receipt!.status).toBe(1);
    const p = provider(chain);
    expect(await p.getBalance(feeRecipient)).toBe(fee);
    expect(await p.getBalance(chain.permits.permitRouter)).toBe(0n);
    expect((await usdc.balanceOf(recipient)) as bigint).toBeGreaterThan(0n);
    const paid = receipt!.logs
      .map((log: Log) => router.interface.parseLog(log))
      .flatMap((parsed: LogDescription | null) =>
        parsed?.name === 'IntegratorFeePaid' ? [parsed.args.toArray()] : [],
      );
    expect(paid).toEqual([[feeRecipient, ZeroAddress, user.address, fee]]);
  });
});
