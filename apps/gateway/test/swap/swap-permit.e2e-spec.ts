import { randomBytes } from 'node:crypto';
import { Contract, HDNodeWallet, MaxUint256, Signature, Transaction, TransactionRequest } from 'ethers';
import type { RoutePermitInfo as RoutePermit } from '@swapgw/contracts';
import { ApiClient, ApiResponse, waitFor } from '@swapgw/testing';
import { EIP2612_PERMIT_TYPES, PERMIT2_TRANSFER_FROM_TYPES } from '@swapgw/devnet';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import {
  nextSigning,
  quoteFirstRoute,
  SwapCaller,
  submitSigned,
  expectedOutBaseUnits,
} from '../support/swap-steps';

// Permits through HTTP on the devnet: the wallet learns what to sign from the quote route's
// `permit`, signs the EIP-2612 Permit or the Permit2 PermitTransferFrom with ethers, builds, and the
// first leg is ONE transaction to the SwapGatewayRouter carrying the permit (no approve step;
// permit2 adds one approve of Permit2 when the token is not approved to it yet).
const devnet = new DevnetEvm();
const chainA = devnet.chain('devnet-a');
const provider = devnet.provider('devnet-a');
const erc20 = (symbol: string) => devnet.token('devnet-a', symbol);
const permit2 = new Contract(
  chainA.permits.permit2,
  ['function nonceBitmap(address owner, uint256 wordPos) view returns (uint256)'],
  provider,
);
/** Anvil account 7: used by no other e2e suite, so its nonces and allowances are this file's. */
const wallet = devnet.account(7).connect(provider);
const stranger = devnet.account(8);

interface QuotedRoute {
  routeId: string;
  expectedAmountOut: string;
  tokenOutDecimals: number;
  permit?: RoutePermit;
}
interface SigningBody {
  swapId: string;
  mode: 'sync' | 'async';
  signing: {
    step: { current: number; total: number } | null;
    payload?: { type: string; transaction: TransactionRequest };
  };
}

const inTenMinutes = () => Date.now() + 600_000;
const randomNonce = () => BigInt(`0x${randomBytes(8).toString('hex')}`);

describe('swap build with permits through HTTP on the devnet', () => {
  let client: ApiClient;
  let documented: E2eApi['documented'];
  /** The signing polls go to the gateway the builds went to. */
  let caller: SwapCaller;

  beforeAll(async () => {
    ({ client, documented } = await connectE2eApi('swap-permit-e2e'));
    caller = { client, documented };
  });

  afterAll(() => devnet.destroy());

  async function quote(
    tokenIn: string,
    tokenOut: string,
    amount: string,
  ): Promise<{ quoteId: string; route: QuotedRoute & { permit: RoutePermit } }> {
    const { quoteId, route } = await quoteFirstRoute<QuotedRoute>(caller, {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn,
      tokenOut,
      amount,
      slippageBps: 100,
    });
    // What the wallet signs comes from the quote, not from our source.
    expect(route.permit).toMatchObject({
      chain: 'devnet-a',
      chainId: chainA.chainId,
      token: chainA.tokens[tokenIn].address,
      spender: chainA.permits.permitRouter,
      permit2: chainA.permits.permit2,
    });
    return { quoteId, route: route as QuotedRoute & { permit: RoutePermit } };
  }

  async function signEip2612(
    permit: RoutePermit,
    signer: HDNodeWallet,
    deadlineMs: number,
  ): Promise<Signature> {
    const nonce = (await erc20Symbol(permit.token).getFunction('nonces')(wallet.address)) as bigint;
    const domain = {
      name: permit.eip2612!.name,
      version: permit.eip2612!.version,
      chainId: permit.chainId,
      verifyingContract: permit.token,
    };
    const message = {
      owner: wallet.address,
      spender: permit.spender,
      value: BigInt(permit.amountBaseUnits),
      nonce,
      deadline: BigInt(Math.floor(deadlineMs / 1000)),
    };
    return Signature.from(await signer.signTypedData(domain, EIP2612_PERMIT_TYPES, message));
  }

  async function signPermit2(
    permit: RoutePermit,
    signer: HDNodeWallet,
    nonce: bigint,
    deadlineMs: number,
  ): Promise<Signature> {
    const domain = { name: 'Permit2', chainId: permit.chainId, verifyingContract: permit.permit2 };
    const message = {
      permitted: { token: permit.token, amount: BigInt(permit.amountBaseUnits) },
      spender: permit.spender,
      nonce,
      deadline: BigInt(Math.floor(deadlineMs / 1000)),
    };
    return Signature.from(await signer.signTypedData(domain, PERMIT2_TRANSFER_FROM_TYPES, message));
  }

  const erc20Symbol = (address: string) =>
    erc20(Object.keys(chainA.tokens).find((s) => chainA.tokens[s].address === address)!);

  async function build(body: Record<string, unknown>): Promise<ApiResponse> {
    return documented(
      'POST',
      '/swap/build',
      await client.post('/swap/build', { userAddress: wallet.address, waitForTxRequestMs: 20_000, ...body }),
    );
  }

  /** Signs and submits every step (polling the signing endpoint); returns the steps and the terminal answer. */
  async function signEveryStep(swapId: string) {
    const signed: Array<{ step: string; to: string }> = [];
    let step = 0;
    for (;;) {
      const res = await nextSigning(caller, swapId, step, 60_000);
      if (res.status === 409)
        return { signed, terminal: res.body.error as { code: string; details: Record<string, unknown> } };
      const { signing } = res.body.data as SigningBody;
      const rawTx = await wallet.signTransaction(signing.payload!.transaction);
      const submitted = await submitSigned(caller, swapId, rawTx);
      expect(submitted.status).toBe(200);
      expect(submitted.body.data.txHash).toBe(Transaction.from(rawTx).hash);
      signed.push({
        step: `${signing.step!.current}/${signing.step!.total}`,
        to: String(signing.payload!.transaction.to),
      });
      step = signing.step!.current;
    }
  }

  it('eip2612: one step to the permit router, the swap completes as quoted, and no allowance is left', async () => {
    const { quoteId, route } = await quote('USDC', 'WETH', '7');
    expect(route.permit).toMatchObject({
      amountBaseUnits: '7000000',
      eip2612: { name: chainA.tokens.USDC.name, version: chainA.tokens.USDC.permitVersion ?? '1' },
    });
    const usdc = erc20('USDC');
    const weth = erc20('WETH');
    const allowanceOf = async (spender: string) =>
      (await usdc.getFunction('allowance')(wallet.address, spender)) as bigint;
    const [usdcBefore, wethBefore, routerAllowanceBefore, permitAllowanceBefore] = await Promise.all([
      usdc.getFunction('balanceOf')(wallet.address) as Promise<bigint>,
      weth.getFunction('balanceOf')(wallet.address) as Promise<bigint>,
      allowanceOf(chainA.uniswapV2.router),
      allowanceOf(chainA.permits.permitRouter),
    ]);
    const permitDeadline = inTenMinutes();
    const signature = await signEip2612(route.permit, wallet, permitDeadline);

    const built = await build({
      quoteId,
      routeId: route.routeId,
      permitType: 'eip2612',
      permitDeadline,
      permitSignatureCompact: { r: signature.r, vs: signature.yParityAndS },
    });
    expect(built.status).toBe(200);
    expect(built.body.data.signing.step).toEqual({ current: 1, total: 1 });
    expect(built.body.data.signing.payload.transaction.to).toBe(chainA.permits.permitRouter);
    const { signed, terminal } = await signEveryStep(built.body.data.swapId);

    expect(signed).toEqual([{ step: '1/1', to: chainA.permits.permitRouter }]);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    expect(usdcBefore - ((await usdc.getFunction('balanceOf')(wallet.address)) as bigint)).toBe(7_000_000n);
    const wethGained = ((await weth.getFunction('balanceOf')(wallet.address)) as bigint) - wethBefore;
    expect(wethGained).toBeGreaterThanOrEqual((expectedOutBaseUnits(route) * 9_900n) / 10_000n);
    expect(await allowanceOf(chainA.uniswapV2.router)).toBe(routerAllowanceBefore);
    expect(await allowanceOf(chainA.permits.permitRouter)).toBe(permitAllowanceBefore);
    expect(permitAllowanceBefore).toBe(0n);
  });

  it('permit2, token not yet approved to Permit2: approve Permit2, then one swap step carrying the PermitTransferFrom', async () => {
    const dai = erc20('DAI');
    // Start from "never approved" even on a devnet that an earlier run used.
    await (await dai.connect(wallet).getFunction('approve')(chainA.permits.permit2, 0n)).wait();
    const { quoteId, route } = await quote('DAI', 'USDC', '12');
    const usdc = erc20('USDC');
    const [daiBefore, usdcBefore] = [
      (await dai.getFunction('balanceOf')(wallet.address)) as bigint,
      (await usdc.getFunction('balanceOf')(wallet.address)) as bigint,
    ];
    const nonce = randomNonce();
    const permitDeadline = inTenMinutes();
    const signature = await signPermit2(route.permit, wallet, nonce, permitDeadline);

    const built = await build({
      quoteId,
      routeId: route.routeId,
      permitType: 'permit2',
      permitDeadline,
      permitSignature: { v: signature.v, r: signature.r, s: signature.s },
      permit2: { nonce: nonce.toString() },
    });
    expect(built.status).toBe(200);
    expect(built.body.data.signing.step).toEqual({ current: 1, total: 2 });
    const { signed, terminal } = await signEveryStep(built.body.data.swapId);

    expect(signed).toEqual([
      { step: '1/2', to: chainA.tokens.DAI.address },
      { step: '2/2', to: chainA.permits.permitRouter },
    ]);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    expect(daiBefore - ((await dai.getFunction('balanceOf')(wallet.address)) as bigint)).toBe(
      12n * 10n ** 18n,
    );
    const usdcGained = ((await usdc.getFunction('balanceOf')(wallet.address)) as bigint) - usdcBefore;
    expect(usdcGained).toBeGreaterThanOrEqual((expectedOutBaseUnits(route) * 9_900n) / 10_000n);
    expect(await dai.getFunction('allowance')(wallet.address, chainA.permits.permit2)).toBe(MaxUint256);
    // The nonce is spent in Permit2's unordered bitmap.
    const word = (await permit2.getFunction('nonceBitmap')(wallet.address, nonce >> 8n)) as bigint;
    expect((word >> (nonce & 0xffn)) & 1n).toBe(1n);
  });

  it('permit2, token already approved to Permit2: a single step (signature and deadline in the permit2 object)', async () => {
    expect(await erc20('DAI').getFunction('allowance')(wallet.address, chainA.permits.permit2)).toBe(
      MaxUint256,
    );
    const { quoteId, route } = await quote('DAI', 'WETH', '30');
    const nonce = randomNonce();
    const deadline = inTenMinutes();
    const signature = await signPermit2(route.permit, wallet, nonce, deadline);

    const built = await build({
      quoteId,
      routeId: route.routeId,
      permit2: { nonce: nonce.toString(), deadline, signature: signature.compactSerialized },
    });
    expect(built.status).toBe(200);
    const { signed, terminal } = await signEveryStep(built.body.data.swapId);

    expect(signed).toEqual([{ step: '1/1', to: chainA.permits.permitRouter }]);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
  });

  it('a permit signed by another key: the build answers 409 TX_REQUEST_INVALID naming the revert, and no payload is issued', async () => {
    const eip2612Quote = await quote('USDC', 'DAI', '3');
    const permitDeadline = inTenMinutes();
    const forged = await signEip2612(eip2612Quote.route.permit, stranger, permitDeadline);
    const refused = await build({
      quoteId: eip2612Quote.quoteId,
      routeId: eip2612Quote.route.routeId,
      permitType: 'eip2612',
      permitDeadline,
      permitSignature: { v: forged.v, r: forged.r, s: forged.s },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'TX_REQUEST_INVALID',
      details: { status: 'failed', message: `PermitRejected(${chainA.tokens.USDC.address})` },
    });

    const permit2Quote = await quote('DAI', 'USDC', '4');
    const nonce = randomNonce();
    const forged2 = await signPermit2(permit2Quote.route.permit, stranger, nonce, permitDeadline);
    const refused2 = await build({
      quoteId: permit2Quote.quoteId,
      routeId: permit2Quote.route.routeId,
      permitDeadline,
      permit2: { nonce: nonce.toString(), signature: forged2.serialized },
    });
    expect(refused2.status).toBe(409);
    expect(refused2.body.error).toMatchObject({
      code: 'TX_REQUEST_INVALID',
      details: { message: 'InvalidSigner()' },
    });
    // The failed swap stays failed: polling it answers terminal, never a payload.
    const polled = documented(
      'GET',
      `/swap/${refused2.body.error.details.swapId}/signing`,
      await client.get(`/swap/${refused2.body.error.details.swapId}/signing`),
    );
    expect(polled.status).toBe(409);
  });

  it('refuses what cannot be a permit build with 400 VALIDATION_FAILED naming the field', async () => {
    const { quoteId, route } = await quote('USDC', 'WETH', '1');
    const sig = { v: 27, r: `0x${'1'.repeat(64)}`, s: `0x${'2'.repeat(64)}` };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ permitType: 'eip2612', permitDeadline: inTenMinutes() }, 'permitSignature'],
      [{ permitType: 'eip2612', permitDeadline: Date.now() - 1000, permitSignature: sig }, 'permitDeadline'],
      [{ permitType: 'eip2612', permitDeadline: 1e300, permitSignature: sig }, 'permitDeadline'],
      [{ permitType: 'permit2', permitDeadline: inTenMinutes(), permitSignature: sig }, 'permit2.nonce'],
      [
        { permit2: { nonce: '1', extra: true }, permitDeadline: inTenMinutes(), permitSignature: sig },
        'permit2.extra',
      ],
      [{ permit2: { nonce: '-1' }, permitDeadline: inTenMinutes(), permitSignature: sig }, 'permit2.nonce'],
    ];
    for (const [permit, field] of cases) {
      const res = await build({ quoteId, routeId: route.routeId, ...permit });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
      const fields = (res.body.error.details.fields as Array<{ field: string }> | undefined)?.map(
        (f) => f.field,
      ) ?? [res.body.error.details.field];
      expect(fields).toContain(field);
    }
    const native = await client.post('/quote', {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'ETH',
      tokenOut: 'USDC',
      amount: '0.01',
    });
    expect(native.body.data.routes[0].permit).toBeUndefined();
    const nativeBuild = await build({
      quoteId: native.body.data.quoteId,
      routeId: native.body.data.routes[0].routeId,
      permitType: 'eip2612',
      permitDeadline: inTenMinutes(),
      permitSignature: sig,
    });
    expect([nativeBuild.status, nativeBuild.body.error.code, nativeBuild.body.error.details.field]).toEqual([
      400,
      'VALIDATION_FAILED',
      'permitType',
    ]);
  });

  it('a permit the planner refuses after a 202: the signing poll answers the 400 the build would have', async () => {
    const { quoteId, route } = await quote('USDC', 'WETH', '1');
    const sig = { v: 27, r: `0x${'1'.repeat(64)}`, s: `0x${'2'.repeat(64)}` };
    // No wait: the build is accepted as a command before the planner judges the permit.
    const accepted = await build({
      quoteId,
      routeId: route.routeId,
      permitType: 'eip2612',
      permitDeadline: Date.now() - 1000,
      permitSignature: sig,
      waitForTxRequestMs: 0,
    });
    expect(accepted.status).toBe(202);
    const swapId = accepted.body.data.swapId as string;
    const verdict = await waitFor(
      async () => {
        const res = await client.get(`/swap/${swapId}/signing`);
        return res.status === 202 ? undefined : documented('GET', `/swap/${swapId}/signing`, res);
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the planner’s verdict on the signing poll' },
    );
    expect([verdict.status, verdict.body.error.code, verdict.body.error.details.field]).toEqual([
      400,
      'VALIDATION_FAILED',
      'permitDeadline',
    ]);
    expect(verdict.body.error.details).toMatchObject({ swapId, status: 'failed' });
  });
});
