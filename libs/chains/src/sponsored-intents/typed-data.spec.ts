import {
  AbiCoder,
  concat,
  getAddress,
  hexlify,
  id,
  keccak256,
  MaxUint256,
  randomBytes,
  TypedDataEncoder,
  zeroPadValue,
} from 'ethers';
import type { SwapIntent, TypedDataV4 } from './intent-types';
import { SponsoredIntentError } from './intent-values';
import { PERMIT2_WITNESS_TYPEHASH_STUB, PERMIT2_WITNESS_TYPE_STRINGS } from './witness-types';
import {
  swapIntentTypedData,
  swapV3IntentTypedData,
  bridgeIntentTypedData,
  bridgeToIntentTypedData,
  bridgeSwapIntentTypedData,
  acrossSwapIntentTypedData,
  eip2612PermitTypedData,
} from './typed-data';
import {
  ethersTypedDataArgs,
  recoverTypedDataSigner,
  typedDataDigest,
  sponsoredTypedDataKind,
} from './signed-typed-data';
import { sponsoredRouterInterface, encodeSponsoredCall } from './router-calldata';
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
  swapV3Typed,
  bridgeSwapTyped,
  EXCLUSIVE_RELAYER,
  acrossTerms,
  acrossTyped,
  acrossSwapTyped,
  sign,
  toPlain,
} from './testing/intent-fixtures';

describe('sponsored intents: typed data', () => {
  it('is JSON-safe as eth_signTypedData_v4 takes it: EIP712Domain in types, uints as decimal strings, checksummed addresses', () => {
    const td = swapTyped();
    expect(JSON.parse(JSON.stringify(td))).toEqual(td);
    expect(td.primaryType).toBe('PermitWitnessTransferFrom');
    expect(td.domain).toEqual({ name: 'Permit2', chainId: CHAIN_ID, verifyingContract: PERMIT2 });
    expect(td.types.EIP712Domain).toEqual([
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ]);
    expect(td.message).toEqual({
      permitted: { token: USDC, amount: '1500000000' },
      spender: ROUTER,
      nonce: '12345678901234567890',
      deadline: String(DEADLINE),
      witness: {
        venue: VENUE,
        path: [USDC, WETH],
        amountOutMin: '123',
        recipient: RECIPIENT,
        unwrapNative: true,
        deadline: String(DEADLINE - 1n),
        integratorFees: [],
      },
    });
  });

  it.each([
    'SwapIntent',
    'SwapV3Intent',
    'BridgeIntent',
    'BridgeToIntent',
    'BridgeSwapIntent',
    'AcrossIntent',
    'AcrossSwapIntent',
  ] as const)(
    '%s: the type string is Permit2’s witness stub followed by the router’s witnessTypeString',
    (kind) => {
      const td = {
        SwapIntent: swapTyped,
        SwapV3Intent: swapV3Typed,
        BridgeIntent: () =>
          bridgeIntentTypedData({
            ...permitPart(),
            intent: { venue: VENUE, destinationChainId: 31338, recipient: RECIPIENT, deadline: DEADLINE },
          }),
        BridgeToIntent: () =>
          bridgeToIntentTypedData({
            ...permitPart(),
            intent: {
              venue: VENUE,
              destinationChainId: 900,
              recipient: hexlify(randomBytes(32)),
              deadline: DEADLINE,
            },
          }),
        BridgeSwapIntent: () => bridgeSwapTyped(),
        AcrossIntent: acrossTyped,
        AcrossSwapIntent: () => acrossSwapTyped(),
      }[kind]();
      const encoder = TypedDataEncoder.from(ethersTypedDataArgs(td).types);
      expect(encoder.primaryType).toBe('PermitWitnessTransferFrom');
      expect(encoder.encodeType('PermitWitnessTransferFrom')).toBe(
        PERMIT2_WITNESS_TYPEHASH_STUB + PERMIT2_WITNESS_TYPE_STRINGS[kind],
      );
      expect(sponsoredTypedDataKind(td)).toBe(kind);
    },
  );

  it('the digest is the one the router and Permit2 compute (path as keccak of padded addresses, bool as uint256, fees as keccak of their hashStructs)', () => {
    const feeA = { recipient: getAddress('0x' + 'f1'.repeat(20)), amount: 4_500n };
    const feeB = { recipient: getAddress('0x' + 'f2'.repeat(20)), amount: 1_500n };
    const plain = swapTyped();
    const td = swapIntentTypedData({
      ...permitPart(),
      intent: {
        ...(plain.message.witness as unknown as SwapIntent),
        integratorFees: [feeA, { ...feeB, recipient: feeB.recipient.toLowerCase() }],
      },
    });
    expect((td.message.witness as { integratorFees: unknown }).integratorFees).toEqual([
      { recipient: feeA.recipient, amount: '4500' },
      { recipient: feeB.recipient, amount: '1500' },
    ]);
    expect(PERMIT2_WITNESS_TYPE_STRINGS.SwapIntent).toBe(
      'SwapIntent witness)IntegratorFee(address recipient,uint256 amount)SwapIntent(address venue,address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)TokenPermissions(address token,uint256 amount)',
    );
    const feeTypehash = id('IntegratorFee(address recipient,uint256 amount)');
    const abi = AbiCoder.defaultAbiCoder();
    const m = td.message as {
      permitted: { token: string; amount: string };
      spender: string;
      nonce: string;
      deadline: string;
      witness: { venue: string; path: string[]; amountOutMin: string; recipient: string; deadline: string };
    };
    const swapIntentTypehash = id(
      'SwapIntent(address venue,address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)',
    );
    const feesHash = keccak256(
      concat(
        [feeA, feeB].map((fee) =>
          keccak256(abi.encode(['bytes32', 'address', 'uint256'], [feeTypehash, fee.recipient, fee.amount])),
        ),
      ),
    );
    const witness = keccak256(
      abi.encode(
        ['bytes32', 'address', 'bytes32', 'uint256', 'address', 'uint256', 'uint256', 'bytes32'],
        [
          swapIntentTypehash,
          m.witness.venue,
          keccak256(concat(m.witness.path.map((a) => zeroPadValue(a, 32)))),
          m.witness.amountOutMin,
          m.witness.recipient,
          1,
          m.witness.deadline,
          feesHash,
        ],
      ),
    );
    const permissions = keccak256(
      abi.encode(
        ['bytes32', 'address', 'uint256'],
        [id('TokenPermissions(address token,uint256 amount)'), m.permitted.token, m.permitted.amount],
      ),
    );
    const typehash = id(PERMIT2_WITNESS_TYPEHASH_STUB + PERMIT2_WITNESS_TYPE_STRINGS.SwapIntent);
    const structHash = keccak256(
      abi.encode(
        ['bytes32', 'bytes32', 'address', 'uint256', 'uint256', 'bytes32'],
        [typehash, permissions, m.spender, m.nonce, m.deadline, witness],
      ),
    );
    const domainSeparator = keccak256(
      abi.encode(
        ['bytes32', 'bytes32', 'uint256', 'address'],
        [
          id('EIP712Domain(string name,uint256 chainId,address verifyingContract)'),
          id('Permit2'),
          CHAIN_ID,
          PERMIT2,
        ],
      ),
    );
    expect(typedDataDigest(td)).toBe(keccak256(concat(['0x1901', domainSeparator, structHash])));
  });

  it('SwapV3Intent: the V3 path as bytes (token, uint24 fee, token), hashed as the router’s hashSwapV3Intent', () => {
    const td = swapV3Typed();
    expect(JSON.parse(JSON.stringify(td))).toEqual(td);
    const w = td.message.witness as Record<string, string>;
    expect(w).toEqual({
      venue: VENUE,
      path: concat([USDC, '0x0001f4', WETH]).toLowerCase(),
      amountOutMin: '123',
      recipient: RECIPIENT,
      unwrapNative: false,
      deadline: String(DEADLINE - 1n),
      integratorFees: [],
    });
    const expected = keccak256(
      AbiCoder.defaultAbiCoder().encode(
        ['bytes32', 'address', 'bytes32', 'uint256', 'address', 'uint256', 'uint256', 'bytes32'],
        [
          id(
            'SwapV3Intent(address venue,bytes path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)',
          ),
          w.venue,
          keccak256(w.path),
          w.amountOutMin,
          w.recipient,
          0,
          w.deadline,
          keccak256('0x'),
        ],
      ),
    );
    expect(TypedDataEncoder.hashStruct('SwapV3Intent', ethersTypedDataArgs(td).types, w)).toBe(expected);
    expect(() =>
      swapV3IntentTypedData({
        ...permitPart(),
        intent: { ...(td.message.witness as object), venue: VENUE, path: [USDC, WETH], fees: [] } as never,
      }),
    ).toThrow(/uint24 pool fees/);
  });

  it('swap-v3: the router’s swapV3WithIntent with exactly the signed venue and path', async () => {
    const td = swapV3Typed();
    const { wallet, signature } = await sign(td);
    const decoded = sponsoredRouterInterface.parseTransaction({
      data: encodeSponsoredCall(td, wallet.address, signature).data,
    });
    expect(decoded?.name).toBe('swapV3WithIntent');
    const [, owner, intent] = decoded!.args.toArray() as [unknown, string, unknown];
    expect(owner).toBe(wallet.address);
    expect(toPlain(intent)).toEqual([
      VENUE,
      concat([USDC, '0x0001f4', WETH]).toLowerCase(),
      123n,
      RECIPIENT,
      false,
      DEADLINE - 1n,
      [],
    ]);
  });

  it('BridgeSwapIntent: JSON-safe typed data whose witness hash is the router’s hashBridgeSwapIntent', () => {
    const td = bridgeSwapTyped();
    expect(JSON.parse(JSON.stringify(td))).toEqual(td);
    expect(td.types.BridgeSwapIntent).toEqual([
      { name: 'venue', type: 'address' },
      { name: 'destinationChainId', type: 'uint256' },
      { name: 'destinationRouter', type: 'address' },
      { name: 'destinationVenue', type: 'address' },
      { name: 'path', type: 'address[]' },
      { name: 'amountOutMin', type: 'uint256' },
      { name: 'recipient', type: 'address' },
      { name: 'unwrapNative', type: 'bool' },
      { name: 'deadline', type: 'uint256' },
      { name: 'integratorFees', type: 'IntegratorFee[]' },
    ]);
    expect(td.message.witness).toEqual({
      venue: VENUE,
      destinationChainId: '31338',
      destinationRouter: DESTINATION_ROUTER,
      destinationVenue: DESTINATION_VENUE,
      path: [USDC_B, DAI_B],
      amountOutMin: '1480000000000000000',
      recipient: RECIPIENT,
      unwrapNative: false,
      deadline: String(DEADLINE - 1n),
      integratorFees: [],
    });
    const w = td.message.witness as Record<string, string & string[]>;
    const expected = keccak256(
      AbiCoder.defaultAbiCoder().encode(
        [
          'bytes32',
          'address',
          'uint256',
          'address',
          'address',
          'bytes32',
          'uint256',
          'address',
          'uint256',
          'uint256',
          'bytes32',
        ],
        [
          id(
            'BridgeSwapIntent(address venue,uint256 destinationChainId,address destinationRouter,address destinationVenue,address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)',
          ),
          w.venue,
          w.destinationChainId,
          w.destinationRouter,
          w.destinationVenue,
          keccak256(concat(w.path.map((a) => zeroPadValue(a, 32)))),
          w.amountOutMin,
          w.recipient,
          0,
          w.deadline,
          // No fee: the keccak of nothing.
          keccak256('0x'),
        ],
      ),
    );
    expect(
      TypedDataEncoder.hashStruct(
        'BridgeSwapIntent',
        ethersTypedDataArgs(td).types,
        td.message.witness as never,
      ),
    ).toBe(expected);
  });

  it('AcrossSwapIntent: uint32 quote terms, the V3 path as bytes and the integrator fees, hashed as the router’s hashAcrossSwapIntent', () => {
    const fee = { recipient: getAddress('0x' + 'f3'.repeat(20)), amount: 2_500n };
    const td = acrossSwapTyped(undefined, undefined, [{ ...fee, recipient: fee.recipient.toLowerCase() }]);
    expect(JSON.parse(JSON.stringify(td))).toEqual(td);
    const w = td.message.witness as Record<string, string>;
    expect(w).toEqual({
      venue: VENUE,
      destinationChainId: '42161',
      outputToken: USDC_B,
      outputAmount: '1499000000',
      exclusiveRelayer: EXCLUSIVE_RELAYER,
      quoteTimestamp: '1899990000',
      fillDeadline: '1900010000',
      exclusivityParameter: '0',
      destinationRouter: DESTINATION_ROUTER,
      destinationVenue: DESTINATION_VENUE,
      path: concat([USDC_B, '0x0001f4', WETH]).toLowerCase(),
      amountOutMin: '123',
      recipient: RECIPIENT,
      unwrapNative: true,
      deadline: String(DEADLINE - 1n),
      integratorFees: [{ recipient: fee.recipient, amount: '2500' }],
    });
    const abi = AbiCoder.defaultAbiCoder();
    const feeHash = keccak256(
      abi.encode(
        ['bytes32', 'address', 'uint256'],
        [id('IntegratorFee(address recipient,uint256 amount)'), fee.recipient, fee.amount],
      ),
    );
    const words = abi.encode(
      [
        ...['bytes32', 'address', 'uint256', 'address', 'uint256', 'address', 'uint32', 'uint32', 'uint32'],
      ].concat(['address', 'address', 'bytes32', 'uint256', 'address', 'uint256', 'uint256', 'bytes32']),
      [
        id(
          'AcrossSwapIntent(address venue,uint256 destinationChainId,address outputToken,uint256 outputAmount,address exclusiveRelayer,uint32 quoteTimestamp,uint32 fillDeadline,uint32 exclusivityParameter,address destinationRouter,address destinationVenue,bytes path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)',
        ),
        w.venue,
        w.destinationChainId,
        w.outputToken,
        w.outputAmount,
        w.exclusiveRelayer,
        w.quoteTimestamp,
        w.fillDeadline,
        w.exclusivityParameter,
        w.destinationRouter,
        w.destinationVenue,
        keccak256(w.path),
        w.amountOutMin,
        w.recipient,
        1,
        w.deadline,
        // One fee: the keccak of its hashStruct.
        keccak256(feeHash),
      ],
    );
    expect(TypedDataEncoder.hashStruct('AcrossSwapIntent', ethersTypedDataArgs(td).types, w)).toBe(
      keccak256(words),
    );
    const intent = {
      ...acrossTerms,
      destinationRouter: DESTINATION_ROUTER,
      destinationVenue: DESTINATION_VENUE,
    };
    const rest = { amountOutMin: 1n, recipient: RECIPIENT, unwrapNative: false, deadline: DEADLINE };
    expect(() =>
      acrossSwapIntentTypedData({
        ...permitPart(),
        intent: { ...intent, ...rest, path: [WETH, USDC_B], fees: [500] },
      }),
    ).toThrow(/not the output token/);
    expect(() =>
      acrossSwapIntentTypedData({
        ...permitPart(),
        intent: { ...intent, ...rest, path: [USDC_B, WETH], fees: [500], quoteTimestamp: 2 ** 32 },
      }),
    ).toThrow(/uint32/);
  });

  it('round-trips through a wallet signature, also after JSON', async () => {
    for (const td of [
      swapTyped(),
      bridgeIntentTypedData({
        ...permitPart(),
        intent: { venue: VENUE, destinationChainId: '31338', recipient: RECIPIENT, deadline: DEADLINE },
      }),
      bridgeToIntentTypedData({
        ...permitPart(),
        intent: {
          venue: VENUE,
          destinationChainId: 900,
          recipient: hexlify(randomBytes(32)),
          deadline: DEADLINE,
        },
      }),
      bridgeSwapTyped(),
      eip2612PermitTypedData({
        chainId: CHAIN_ID,
        token: USDC,
        tokenName: 'USD Coin',
        owner: RECIPIENT,
        spender: PERMIT2,
        value: MaxUint256,
        nonce: 0,
        deadline: DEADLINE,
      }),
    ]) {
      const { wallet, signature } = await sign(td);
      expect(recoverTypedDataSigner(td, signature)).toBe(wallet.address);
      expect(recoverTypedDataSigner(JSON.parse(JSON.stringify(td)) as TypedDataV4, signature)).toBe(
        wallet.address,
      );
      // Any change to what was signed recovers someone else.
      const changed = { ...td, message: { ...td.message, deadline: String(DEADLINE + 1n) } };
      expect(recoverTypedDataSigner(changed, signature)).not.toBe(wallet.address);
    }
  });

  it('refuses a swap whose path does not start with the permitted token, and malformed values', () => {
    const base = {
      ...permitPart(),
      intent: {
        venue: VENUE,
        path: [WETH, USDC],
        amountOutMin: 1n,
        recipient: RECIPIENT,
        unwrapNative: false,
        deadline: DEADLINE,
      },
    };
    expect(() => swapIntentTypedData(base)).toThrow(SponsoredIntentError);
    expect(() => swapIntentTypedData({ ...base, intent: { ...base.intent, path: [USDC] } })).toThrow(
      /at least two/,
    );
    expect(() =>
      swapIntentTypedData({ ...base, intent: { ...base.intent, path: [USDC, WETH], amountOutMin: '' } }),
    ).toThrow(/amountOutMin is empty/);
    expect(() =>
      swapIntentTypedData({ ...base, intent: { ...base.intent, path: [USDC, WETH], amountOutMin: -1n } }),
    ).toThrow(/not a uint256/);
    expect(() =>
      swapIntentTypedData({ ...base, amount: '1.5', intent: { ...base.intent, path: [USDC, WETH] } }),
    ).toThrow(/amount is not an integer/);
    expect(() =>
      swapIntentTypedData({ ...base, intent: { ...base.intent, path: [USDC, WETH], recipient: '0x1234' } }),
    ).toThrow(/intent.recipient is not an address/);
    expect(() =>
      bridgeToIntentTypedData({
        ...permitPart(),
        intent: { venue: VENUE, destinationChainId: 900, recipient: RECIPIENT, deadline: DEADLINE },
      }),
    ).toThrow(/32 bytes/);
    const bridgeSwap = bridgeSwapTyped().message.witness as Parameters<
      typeof bridgeSwapIntentTypedData
    >[0]['intent'];
    expect(() =>
      bridgeSwapIntentTypedData({ ...permitPart(), intent: { ...bridgeSwap, path: [USDC_B] } }),
    ).toThrow(/at least two/);
    expect(() =>
      bridgeSwapIntentTypedData({
        ...permitPart(),
        intent: { ...bridgeSwap, recipient: DESTINATION_ROUTER.toLowerCase() },
      }),
    ).toThrow(/cannot be the destination router/);
    expect(() =>
      bridgeSwapIntentTypedData({ ...permitPart(), intent: { ...bridgeSwap, destinationRouter: '0x12' } }),
    ).toThrow(/intent.destinationRouter is not an address/);
    expect(() =>
      bridgeSwapIntentTypedData({ ...permitPart(), intent: { ...bridgeSwap, amountOutMin: '' } }),
    ).toThrow(/amountOutMin is empty/);
  });
});
