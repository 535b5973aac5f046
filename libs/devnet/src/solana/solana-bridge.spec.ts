import { Keypair, PublicKey, TransactionMessage } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { bech32 } from '@scure/base';
import bs58 from 'bs58';
import { decodeBridgeSwapMessage } from '@swapgw/chains';
import { ZeroAddress } from 'ethers';
import { solanaFeeAccountsOf, solanaIntegratorFeeInstructions } from '@swapgw/chains/families';
import { readVaultTransaction } from '../bridge/solana-bridge-endpoint';
import {
  amountAfterBridgeFee,
  bridgeSwapMessageProblem,
  bytes32ToSolanaAddress,
  memoInstruction,
  parseSolanaBridgeDepositMemo,
  parseSolanaBridgeReleaseMemo,
  solanaBridgeDepositInstructions,
  solanaBridgeDepositMemo,
  solanaBridgeReleaseMemo,
  solanaBridgeSwapMessageBytes,
  SolanaBridgeSwapMessage,
  solanaDepositNonce,
  solanaRecipientBytes32,
} from '@swapgw/chains/solana-bridge';

const key = (n: number) => new PublicKey(Buffer.alloc(32, n));
const manifest = {
  tokens: { USDC: { mint: key(1).toBase58(), decimals: 6 } },
  bridge: { vault: key(2).toBase58() },
};
const evmRecipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** Compiles instructions the way a wallet would and reads them back as the endpoint does. */
function compiledView(payer: PublicKey, instructions: ReturnType<typeof solanaBridgeDepositInstructions>) {
  const message = new TransactionMessage({
    payerKey: payer,
    recentBlockhash: bs58.encode(Buffer.alloc(32, 9)),
    instructions,
  }).compileToV0Message();
  return readVaultTransaction({
    accountKeys: message.staticAccountKeys.map((k) => k.toBase58()),
    instructions: message.compiledInstructions,
    vault: manifest.bridge.vault,
    mint: manifest.tokens.USDC.mint,
  });
}

describe('Solana bridge memos', () => {
  it('writes and reads the deposit memo with a checksummed recipient', () => {
    const memo = solanaBridgeDepositMemo(31337, evmRecipient.toLowerCase());
    expect(memo).toBe(`swapgw-bridge:v1:31337:${evmRecipient}`);
    expect(parseSolanaBridgeDepositMemo(memo)).toEqual({
      destinationChainId: 31337n,
      recipient: evmRecipient,
    });
  });

  it('takes a bech32 Bitcoin recipient when the destination is Bitcoin, and only then', () => {
    const p2wpkh = 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj';
    const memo = solanaBridgeDepositMemo(20000000000001, p2wpkh);
    expect(memo).toBe(`swapgw-bridge:v1:20000000000001:${p2wpkh}`);
    expect(parseSolanaBridgeDepositMemo(memo)).toEqual({
      destinationChainId: 20000000000001n,
      recipient: p2wpkh,
    });
    expect(parseSolanaBridgeDepositMemo(`swapgw-bridge:v1:31337:${p2wpkh}`)).toBeUndefined();
    expect(parseSolanaBridgeDepositMemo(`swapgw-bridge:v1:20000000000001:${evmRecipient}`)).toBeUndefined();
    expect(
      parseSolanaBridgeDepositMemo(`swapgw-bridge:v1:20000000000001:${p2wpkh.slice(0, -1)}x`),
    ).toBeUndefined();
    expect(() => solanaBridgeDepositMemo(20000000000001, evmRecipient)).toThrow(/not a P2WPKH or P2TR/);
  });

  it('takes a noble1… account of 20 bytes when the destination is Noble (CCTP domain 4), and only then', () => {
    const account = bech32.encode('noble', bech32.toWords(Buffer.alloc(20, 7)));
    const memo = solanaBridgeDepositMemo(4, account);
    expect(memo).toBe(`swapgw-bridge:v1:4:${account}`);
    expect(parseSolanaBridgeDepositMemo(memo)).toEqual({ destinationChainId: 4n, recipient: account });
    // Another chain's account, a module account (32 bytes), a bad checksum, upper case, an EVM address.
    const osmo = bech32.encode('osmo', bech32.toWords(Buffer.alloc(20, 7)));
    const module = bech32.encode('noble', bech32.toWords(Buffer.alloc(32, 7)));
    for (const recipient of [osmo, module, `${account.slice(0, -1)}q`, account.toUpperCase(), evmRecipient])
      expect(parseSolanaBridgeDepositMemo(`swapgw-bridge:v1:4:${recipient}`)).toBeUndefined();
    // A Noble account names no EVM recipient, and a deposit to Noble carries no message.
    expect(parseSolanaBridgeDepositMemo(`swapgw-bridge:v1:31337:${account}`)).toBeUndefined();
    expect(
      parseSolanaBridgeDepositMemo(
        `${memo}:swap:${evmRecipient}:${evmRecipient},${evmRecipient}:1:${evmRecipient}:0:1`,
      ),
    ).toBeUndefined();
    expect(() => solanaBridgeDepositMemo(4, osmo)).toThrow(/not a noble1… account of 20 bytes/);
    expect(() => solanaBridgeDepositMemo(4, evmRecipient)).toThrow(/not a noble1… account/);
    expect(() => solanaBridgeDepositMemo(31337, account)).toThrow(/not an EVM address/);
  });

  it.each([
    ['another prefix', `swapgw-bridge:v2:31337:${evmRecipient}`],
    ['no recipient', 'swapgw-bridge:v1:31337:'],
    ['a short address', 'swapgw-bridge:v1:31337:0x1234'],
    ['a wrong checksum', `swapgw-bridge:v1:31337:${evmRecipient.replace('C51812', 'c51812')}`],
    ['trailing text', `swapgw-bridge:v1:31337:${evmRecipient} please`],
  ])('rejects a deposit memo with %s', (_why, memo) => {
    expect(parseSolanaBridgeDepositMemo(memo)).toBeUndefined();
  });

  describe('with a swap message for the destination router', () => {
    const router = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
    const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const weth = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
    const venue = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9';
    const message: SolanaBridgeSwapMessage = {
      venue,
      path: [usdc, weth],
      amountOutMin: 4_950_000_000_000_000n,
      recipient: evmRecipient,
      unwrapNative: false,
      deadline: 1_900_000_000n,
    };
    const memo = `swapgw-bridge:v1:31337:${router}:swap:${venue}:${usdc},${weth}:4950000000000000:${evmRecipient}:0:1900000000`;

    it('writes every field of the message after the plain memo, checksummed, and reads it back', () => {
      const written = solanaBridgeDepositMemo(31337, router.toLowerCase(), {
        ...message,
        path: message.path.map((a) => a.toLowerCase()),
        recipient: evmRecipient.toLowerCase(),
      });
      expect(written).toBe(memo);
      expect(parseSolanaBridgeDepositMemo(written)).toEqual({
        destinationChainId: 31337n,
        recipient: router,
        message,
      });
    });

    it('round-trips native output, a venue, an eight-token path, the largest chain id and uint256s, and fits one transaction', () => {
      const max = (1n << 256n) - 1n;
      const longest = {
        venue,
        path: Array.from({ length: 8 }, (_, i) => `0x${String(i + 1).repeat(40)}`),
        amountOutMin: max,
        recipient: evmRecipient,
        unwrapNative: true,
        deadline: max,
      };
      // The longest memo the relayer reads: a 20-digit chain id, the venue, 8 tokens, 78-digit integers.
      const chainId = 10n ** 20n - 1n;
      const memo = solanaBridgeDepositMemo(chainId, router, longest);
      expect(memo.length).toBe(675);
      const parsed = parseSolanaBridgeDepositMemo(memo);
      expect(parsed).toEqual({ destinationChainId: chainId, recipient: router, message: longest });
      // The whole deposit still fits one transaction (1,232 bytes) with the service's fee payer.
      const user = Keypair.fromSeed(Buffer.alloc(32, 7)).publicKey;
      const instructions = solanaBridgeDepositInstructions({
        user,
        amount: 1n,
        destinationChainId: chainId,
        recipient: router,
        message: longest,
        manifest,
      });
      const message0 = new TransactionMessage({
        payerKey: key(9),
        recentBlockhash: bs58.encode(Buffer.alloc(32, 9)),
        instructions,
      }).compileToV0Message();
      expect(1 + 64 * 2 + message0.serialize().length).toBeLessThanOrEqual(1232);

      // With integrator fees paid before it (recipients without token accounts: created first).
      const withFees = (recipients: number, message?: typeof longest) => {
        const fees = Array.from({ length: recipients }, (_, i) => ({
          recipient: key(40 + i).toBase58(),
          amount: 1n,
        }));
        const token = { mint: new PublicKey(manifest.tokens.USDC.mint), decimals: 6 };
        const feeInstructions = solanaIntegratorFeeInstructions({
          owner: user,
          feePayer: key(9),
          token,
          fees,
          missingAccounts: new Set(solanaFeeAccountsOf(token, fees).map((a) => a.toBase58())),
        });
        const deposit = solanaBridgeDepositInstructions({
          user,
          amount: 1n,
          destinationChainId: chainId,
          recipient: router,
          ...(message ? { message } : {}),
          manifest,
        });
        const compiled = new TransactionMessage({
          payerKey: key(9),
          recentBlockhash: bs58.encode(Buffer.alloc(32, 9)),
          instructions: [...feeInstructions, ...deposit],
        }).compileToV0Message();
        return 1 + 64 * 2 + compiled.serialize().length;
      };
      // A plain deposit and a bridge-swap of two tokens (realistic amounts) fit five recipients whose
      // token accounts are created; the longest memo leaves no room: the signer refuses that step.
      const twoTokens = { ...message, amountOutMin: 10n ** 24n, deadline: 1_800_000_000n };
      expect(withFees(5)).toBeLessThanOrEqual(1232);
      expect(withFees(5, twoTokens)).toBeLessThanOrEqual(1232);
      expect(withFees(1, longest)).toBeGreaterThan(1232);
    });

    it('is the message the router decodes: its BridgeSwapMessage with the zero address as owner', () => {
      expect(decodeBridgeSwapMessage(solanaBridgeSwapMessageBytes(message))).toEqual({
        owner: ZeroAddress,
        ...message,
      });
    });

    it.each([
      ['a path of one token', memo.replace(`${usdc},${weth}`, usdc)],
      ['a path of nine tokens', memo.replace(`${usdc},${weth}`, Array(9).fill(usdc).join(','))],
      ['a path token with a wrong checksum', memo.replace(weth, weth.replace('fE4', 'fe4'))],
      ['a final recipient that is the router', memo.replace(`:${evmRecipient}:`, `:${router}:`)],
      ['a zero final recipient', memo.replace(`:${evmRecipient}:`, `:${ZeroAddress}:`)],
      ['a zero router', memo.replace(`:${router}:`, `:${ZeroAddress}:`)],
      ['unwrapNative other than 0 or 1', memo.replace(':0:1900000000', ':true:1900000000')],
      ['a minimum with a leading zero', memo.replace(':4950000000000000:', ':04950000000000000:')],
      ['a minimum above uint256', memo.replace(':4950000000000000:', `:${(1n << 256n).toString()}:`)],
      ['a negative deadline', memo.replace(':1900000000', ':-1')],
      ['a missing field', memo.replace(':0:1900000000', ':1900000000')],
      ['another message kind', memo.replace(':swap:', ':call:')],
      ['trailing text', `${memo}:more`],
    ])('rejects a memo with %s', (_why, bad) => {
      expect(parseSolanaBridgeDepositMemo(bad)).toBeUndefined();
    });

    it('refuses to write a message the router would refuse, and says why', () => {
      expect(() => solanaBridgeDepositMemo(31337, router, { ...message, recipient: router })).toThrow(
        /final recipient .* cannot be zero or the deposit's recipient/,
      );
      expect(() => solanaBridgeDepositMemo(31337, router, { ...message, path: [usdc] })).toThrow(
        /path has 1 tokens/,
      );
      expect(() => solanaBridgeDepositMemo(31337, router, { ...message, amountOutMin: -1n })).toThrow(
        /amountOutMin -1 is not a uint256/,
      );
      expect(bridgeSwapMessageProblem(router, message)).toBeNull();
    });

    it('leaves plain memos as they were: no message', () => {
      expect(parseSolanaBridgeDepositMemo(`swapgw-bridge:v1:31337:${evmRecipient}`)).toEqual({
        destinationChainId: 31337n,
        recipient: evmRecipient,
      });
      expect(parseSolanaBridgeDepositMemo(`swapgw-bridge:v1:31337:${evmRecipient}`)).not.toHaveProperty(
        'message',
      );
    });
  });

  it('refuses to write a memo for a recipient that is not an EVM address', () => {
    expect(() => solanaBridgeDepositMemo(31337, key(5).toBase58())).toThrow(/not an EVM address/);
  });

  it('round-trips the release memo', () => {
    const memo = solanaBridgeReleaseMemo(31337n, 12n);
    expect(memo).toBe('swapgw-bridge-release:31337:12');
    expect(parseSolanaBridgeReleaseMemo(memo)).toEqual({ sourceChainId: 31337n, nonce: 12n });
    expect(parseSolanaBridgeReleaseMemo('swapgw-bridge-release:31337:')).toBeUndefined();
  });
});

describe('Solana bridge encodings', () => {
  it('maps a Solana address to bytes32 and back', () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const bytes32 = solanaRecipientBytes32(wallet);
    expect(bytes32).toMatch(/^0x[0-9a-f]{64}$/);
    expect(bytes32ToSolanaAddress(bytes32)).toBe(wallet);
  });

  it('derives a stable 256-bit nonce from the deposit signature', () => {
    const signature = bs58.encode(Buffer.concat([Buffer.alloc(32, 0xab), Buffer.alloc(32, 0x01)]));
    expect(solanaDepositNonce(signature)).toBe(BigInt(`0x${'ab'.repeat(32)}`));
    expect(solanaDepositNonce(signature)).toBe(solanaDepositNonce(signature));
    expect(() => solanaDepositNonce(bs58.encode(Buffer.alloc(32, 1)))).toThrow(
      /not a Solana transaction signature/,
    );
  });

  it('applies the fee like the EVM bridge (rounding the fee down)', () => {
    expect(amountAfterBridgeFee(1_000_000_000n, 5)).toBe(999_500_000n);
    expect(amountAfterBridgeFee(1_999n, 5)).toBe(1_999n);
  });
});

describe('readVaultTransaction', () => {
  const user = Keypair.fromSeed(Buffer.alloc(32, 7)).publicKey;

  it('reads the amount and memo of the deposit instructions', () => {
    const view = compiledView(
      user,
      solanaBridgeDepositInstructions({
        user,
        amount: 250_000_000n,
        destinationChainId: 31337,
        recipient: evmRecipient,
        manifest,
      }),
    );
    expect(view).toEqual({
      feePayer: user.toBase58(),
      vaultInflow: 250_000_000n,
      depositor: user.toBase58(),
      memos: [`swapgw-bridge:v1:31337:${evmRecipient}`],
    });
  });

  it('builds a checked transfer from the user USDC account to the vault, and a memo the user signs', () => {
    const [transfer, memo] = solanaBridgeDepositInstructions({
      user,
      amount: 1n,
      destinationChainId: 31338,
      recipient: evmRecipient,
      manifest,
    });
    const userAccount = getAssociatedTokenAddressSync(new PublicKey(manifest.tokens.USDC.mint), user);
    expect(transfer.keys.map((k) => k.pubkey.toBase58())).toEqual([
      userAccount.toBase58(),
      manifest.tokens.USDC.mint,
      manifest.bridge.vault,
      user.toBase58(),
    ]);
    expect(memo.keys).toEqual([{ pubkey: user, isSigner: true, isWritable: false }]);
  });

  it('counts no inflow for a transfer to another account or of another mint', () => {
    const [transfer] = solanaBridgeDepositInstructions({
      user,
      amount: 5n,
      destinationChainId: 31337,
      recipient: evmRecipient,
      manifest,
    });
    const elsewhere = solanaBridgeDepositInstructions({
      user,
      amount: 5n,
      destinationChainId: 31337,
      recipient: evmRecipient,
      manifest: { ...manifest, bridge: { vault: key(3).toBase58() } },
    });
    expect(compiledView(user, elsewhere).vaultInflow).toBe(0n);
    const otherMint = solanaBridgeDepositInstructions({
      user,
      amount: 5n,
      destinationChainId: 31337,
      recipient: evmRecipient,
      manifest: { ...manifest, tokens: { USDC: { mint: key(4).toBase58(), decimals: 6 } } },
    });
    expect(compiledView(user, otherMint).vaultInflow).toBe(0n);
    expect(compiledView(user, [transfer, memoInstruction('hello', [user])]).memos).toEqual(['hello']);
  });
});
