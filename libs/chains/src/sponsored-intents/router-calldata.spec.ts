import { concat, getAddress, hexlify, MaxUint256, randomBytes, Signature, Wallet } from 'ethers';
import type { TypedDataV4 } from './intent-types';
import { SponsoredIntentError } from './intent-values';
import { bridgeIntentTypedData, bridgeToIntentTypedData, eip2612PermitTypedData } from './typed-data';
import { sponsoredTypedDataKind } from './signed-typed-data';
import { sponsoredRouterInterface, eip2612PermitInterface, encodeSponsoredCall } from './router-calldata';
import {
  CHAIN_ID,
  PERMIT2,
  ROUTER,
  USDC,
  WETH,
  RECIPIENT,
  DESTINATION_ROUTER,
  VENUE,
  DESTINATION_VENUE,
  USDC_B,
  DAI_B,
  DEADLINE,
  permitPart,
  swapTyped,
  bridgeSwapTyped,
  EXCLUSIVE_RELAYER,
  acrossTyped,
  acrossSwapTyped,
  sign,
  toPlain,
} from './testing/intent-fixtures';

describe('sponsored intents: encodeSponsoredCall', () => {
  it('swap: the router’s swapWithIntent with exactly the signed permit, owner, intent and signature', async () => {
    const td = swapTyped();
    const { wallet, signature } = await sign(td);
    const call = encodeSponsoredCall(td, wallet.address.toLowerCase(), signature);
    expect(call.to).toBe(ROUTER);
    expect(call.value).toBe('0');
    const decoded = sponsoredRouterInterface.parseTransaction({ data: call.data });
    expect(decoded?.name).toBe('swapWithIntent');
    const [permit, owner, intent, sig] = decoded!.args.toArray() as [unknown, string, unknown, string];
    expect(toPlain(permit)).toEqual([[USDC, 1_500_000_000n], 12345678901234567890n, DEADLINE]);
    expect(owner).toBe(wallet.address);
    expect(toPlain(intent)).toEqual([VENUE, [USDC, WETH], 123n, RECIPIENT, true, DEADLINE - 1n, []]);
    expect(sig).toBe(signature);
  });

  it('bridge: bridgeWithIntent and bridgeToWithIntent carry the signed destination, recipient and integrator fees', async () => {
    const fee = { recipient: getAddress('0x' + 'f1'.repeat(20)), amount: 5n };
    const evm = bridgeIntentTypedData({
      ...permitPart(500n, 7n),
      intent: {
        venue: VENUE,
        destinationChainId: 31338,
        recipient: RECIPIENT,
        deadline: DEADLINE,
        integratorFees: [{ ...fee, recipient: fee.recipient.toLowerCase() }],
      },
    });
    expect((evm.message.witness as { integratorFees: unknown }).integratorFees).toEqual([
      { recipient: fee.recipient, amount: '5' },
    ]);
    const solanaRecipient = hexlify(randomBytes(32));
    const solana = bridgeToIntentTypedData({
      ...permitPart(500n, 8n),
      intent: {
        venue: VENUE,
        destinationChainId: 900,
        recipient: solanaRecipient.toUpperCase().replace('0X', '0x'),
        deadline: DEADLINE,
        integratorFees: [fee, { recipient: RECIPIENT, amount: '7' }],
      },
    });
    for (const [td, method, recipient] of [
      [evm, 'bridgeWithIntent', RECIPIENT],
      [solana, 'bridgeToWithIntent', solanaRecipient],
    ] as const) {
      const { wallet, signature } = await sign(td);
      const decoded = sponsoredRouterInterface.parseTransaction({
        data: encodeSponsoredCall(td, wallet.address, signature).data,
      });
      expect(decoded?.name).toBe(method);
      const [permit, owner, intent] = decoded!.args.toArray() as [unknown, string, unknown];
      expect(toPlain(permit)).toEqual([[USDC, 500n], method === 'bridgeWithIntent' ? 7n : 8n, DEADLINE]);
      expect(owner).toBe(wallet.address);
      expect(toPlain(intent)).toEqual(
        method === 'bridgeWithIntent'
          ? [VENUE, 31338n, recipient, DEADLINE, [[fee.recipient, 5n]]]
          : [
              VENUE,
              900n,
              recipient,
              DEADLINE,
              [
                [fee.recipient, 5n],
                [RECIPIENT, 7n],
              ],
            ],
      );
    }
  });

  it('bridge-swap: bridgeAndSwapWithIntent with the signed destination chain, router, path, minimum out, recipient and deadline', async () => {
    const td = bridgeSwapTyped(500n, 9n);
    expect(sponsoredTypedDataKind(td)).toBe('BridgeSwapIntent');
    const { wallet, signature } = await sign(td);
    const call = encodeSponsoredCall(td, wallet.address, signature);
    expect(call).toMatchObject({ to: ROUTER, value: '0' });
    const decoded = sponsoredRouterInterface.parseTransaction({ data: call.data });
    expect(decoded?.name).toBe('bridgeAndSwapWithIntent');
    const [permit, owner, intent, sig] = decoded!.args.toArray() as [unknown, string, unknown, string];
    expect(toPlain(permit)).toEqual([[USDC, 500n], 9n, DEADLINE]);
    expect(owner).toBe(wallet.address);
    expect(toPlain(intent)).toEqual([
      VENUE,
      31338n,
      DESTINATION_ROUTER,
      DESTINATION_VENUE,
      [USDC_B, DAI_B],
      1_480_000_000_000_000_000n,
      RECIPIENT,
      false,
      DEADLINE - 1n,
      [],
    ]);
    expect(sig).toBe(signature);
    // The witness's field order is part of what was signed: reordered, it is not a BridgeSwapIntent.
    const reordered = {
      ...td,
      types: { ...td.types, BridgeSwapIntent: [...td.types.BridgeSwapIntent].reverse() },
    };
    expect(() => encodeSponsoredCall(reordered, wallet.address, signature)).toThrow(SponsoredIntentError);
  });

  it('across: acrossWithIntent and acrossAndSwapWithIntent with the signed deposit terms, swap, recipient and integrator fees', async () => {
    const deposit = acrossTyped([{ recipient: RECIPIENT, amount: 1_000n }]);
    const { wallet, signature } = await sign(deposit);
    const plain = sponsoredRouterInterface.parseTransaction({
      data: encodeSponsoredCall(deposit, wallet.address, signature).data,
    });
    expect(plain?.name).toBe('acrossWithIntent');
    expect(toPlain(plain!.args[2])).toEqual([
      VENUE,
      42161n,
      USDC_B,
      1_499_000_000n,
      RECIPIENT,
      EXCLUSIVE_RELAYER,
      1_899_990_000n,
      1_900_010_000n,
      0n,
      DEADLINE - 1n,
      [[RECIPIENT, 1_000n]],
    ]);
    const swap = acrossSwapTyped(500n, 9n, [{ recipient: RECIPIENT, amount: 20n }]);
    const signed = await sign(swap, wallet);
    const call = encodeSponsoredCall(swap, wallet.address, signed.signature);
    expect(call).toMatchObject({ to: ROUTER, value: '0' });
    const decoded = sponsoredRouterInterface.parseTransaction({ data: call.data });
    expect(decoded?.name).toBe('acrossAndSwapWithIntent');
    const [permit, owner, intent] = decoded!.args.toArray() as [unknown, string, unknown];
    expect(toPlain(permit)).toEqual([[USDC, 500n], 9n, DEADLINE]);
    expect(owner).toBe(wallet.address);
    expect(toPlain(intent)).toEqual([
      VENUE,
      42161n,
      USDC_B,
      1_499_000_000n,
      EXCLUSIVE_RELAYER,
      1_899_990_000n,
      1_900_010_000n,
      0n,
      DESTINATION_ROUTER,
      DESTINATION_VENUE,
      concat([USDC_B, '0x0001f4', WETH]).toLowerCase(),
      123n,
      RECIPIENT,
      true,
      DEADLINE - 1n,
      [[RECIPIENT, 20n]],
    ]);
  });

  it('refuses a witness type that is not an intent, also one named like an Object property', () => {
    const td = swapTyped();
    const renamed = (witnessType: string): TypedDataV4 => ({
      ...td,
      types: {
        ...td.types,
        PermitWitnessTransferFrom: td.types.PermitWitnessTransferFrom.map((f) =>
          f.name === 'witness' ? { ...f, type: witnessType } : f,
        ),
      },
    });
    for (const witnessType of ['Mail', 'constructor', 'toString'])
      expect(() => sponsoredTypedDataKind(renamed(witnessType))).toThrow(/not a sponsored intent/);
  });

  it('EIP-2612: token.permit(owner, spender, value, deadline, v, r, s) to the token', async () => {
    const wallet = new Wallet(hexlify(randomBytes(32)));
    const td = eip2612PermitTypedData({
      chainId: CHAIN_ID,
      token: USDC,
      tokenName: 'USD Coin',
      owner: wallet.address,
      spender: PERMIT2,
      value: MaxUint256,
      nonce: 3n,
      deadline: DEADLINE,
    });
    const { signature } = await sign(td, wallet);
    const call = encodeSponsoredCall(td, wallet.address, signature);
    expect(call.to).toBe(USDC);
    const [owner, spender, value, deadline, v, r, s] = eip2612PermitInterface
      .decodeFunctionData('permit', call.data)
      .toArray() as [string, string, bigint, bigint, bigint, string, string];
    expect([owner, spender, value, deadline]).toEqual([wallet.address, PERMIT2, MaxUint256, DEADLINE]);
    expect(Signature.from({ v: Number(v), r, s }).serialized).toBe(signature);
    // The relayer cannot present it as someone else's permit.
    expect(() => encodeSponsoredCall(td, RECIPIENT, signature)).toThrow(/not/);
  });

  it('refuses typed data whose types or domain differ from what the contracts verify', async () => {
    const td = swapTyped();
    const { wallet, signature } = await sign(td);
    const reordered = { ...td, types: { ...td.types, SwapIntent: [...td.types.SwapIntent].reverse() } };
    expect(() => encodeSponsoredCall(reordered, wallet.address, signature)).toThrow(SponsoredIntentError);
    const withVersion = {
      ...td,
      domain: { ...td.domain, version: '1' },
      types: { ...td.types, EIP712Domain: [{ name: 'version', type: 'string' }, ...td.types.EIP712Domain] },
    };
    expect(() => encodeSponsoredCall(withVersion, wallet.address, signature)).toThrow(SponsoredIntentError);
    expect(() => encodeSponsoredCall({ ...td, primaryType: 'Mail' }, wallet.address, signature)).toThrow(
      /not a sponsored call/,
    );
    // Without EIP712Domain (as ethers callers hold it) is the same typed data.
    const { EIP712Domain: _domain, ...withoutDomain } = td.types;
    expect(encodeSponsoredCall({ ...td, types: withoutDomain }, wallet.address, signature)).toEqual(
      encodeSponsoredCall(td, wallet.address, signature),
    );
  });
});
