import { sign } from 'node:crypto';
import { Connection, Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { HDNodeWallet, Wallet } from 'ethers';
import { ethersTypedDataArgs, TypedDataV4 } from '@swapgw/chains';
import { SOLANA_FEE_PAYER_COUNT, solanaConnection, solanaFeePayer, solanaTestWallet } from '@swapgw/devnet';
import { waitFor } from '@swapgw/testing';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import {
  freshSolanaWalletWith as freshSolanaWith,
  splBalanceOf,
  tokenAccountOf,
} from '@swapgw/testing/solana';
import {
  buildSwapId,
  nextSigning as nextSigningOf,
  quoteFirstRoute,
  submitSigned,
  expectedOutBaseUnits,
} from '../support/swap-steps';

// Gas covered by the service (the default, gasPayment sponsored) across EVM and Solana: fresh
// wallets holding USDC and no native token at all (0 lamports, 0 wei) complete swaps through the
// spec's flow. The Solana step is a transaction whose fee payer is the service's: the wallet signs
// its own slot, the service adds the fee payer's signature and broadcasts it; towards EVM its memo
// carries the destination swap, so nobody signs on devnet-a. The EVM steps are typed data the
// relayers carry. No native balance ever drops; the input token leaves for exactly `amount`.
const devnet = new DevnetEvm();
const manifest = devnet.manifest;
const providerA = devnet.provider('devnet-a');
const tokenOnA = (symbol: string, runner?: HDNodeWallet) => devnet.token('devnet-a', symbol, runner);
const balanceOnA = (symbol: string, holder: string) => devnet.balanceOf('devnet-a', symbol, holder);
const mint = new PublicKey(manifest.solana.tokens.USDC.mint);
const usdcAccount = (owner: PublicKey) => tokenAccountOf(mint, owner);
/** The service's fee payers on the devnet (libs/devnet devnetSolanaFeePayerKeys, which the stack gives signer-surface). */
const feePayers = Array.from({ length: SOLANA_FEE_PAYER_COUNT }, (_, i) => solanaFeePayer(i + 1));

/** Funders (e2e files run one at a time): EVM account 6, Solana test wallet 4. */
const evmFunder = () => devnet.account(6).connect(providerA);
const solanaFunder = () => solanaTestWallet(4);

interface SolanaPayload {
  type: 'solana-versioned-transaction';
  transaction: string;
}
interface SigningBody {
  swapId: string;
  signing: {
    step: { current: number; total: number } | null;
    payload?:
      SolanaPayload | { type: 'evm-typed-data'; typedData: TypedDataV4 } | { type: 'evm-transaction' };
    executionHints?: Record<string, string>;
  };
}

describe('gas covered by the service between EVM and Solana: wallets without SOL or ETH swap', () => {
  let api: E2eApi;
  let solana: Connection;

  beforeAll(async () => {
    api = await connectE2eApi('gasless-solana-e2e');
    solana = solanaConnection(manifest.solana.rpcUrl);
  });

  afterAll(() => devnet.destroy());

  const lamportsOf = async (owner: PublicKey): Promise<bigint> =>
    BigInt(await solana.getBalance(owner, 'confirmed'));
  const solanaUsdc = (owner: PublicKey) => splBalanceOf(solana, mint, owner);
  /** A new Solana wallet holding `amount` USDC and not one lamport: the funder pays its token account's rent. */
  const freshSolanaWalletWith = (amount: bigint) => freshSolanaWith(solana, mint, solanaFunder(), amount);

  /** A new EVM wallet holding `amount` USDC on devnet-a and no ETH. */
  async function freshEvmWalletWith(amount: bigint): Promise<Wallet> {
    const wallet = Wallet.createRandom();
    await (await tokenOnA('USDC', evmFunder()).getFunction('transfer')(wallet.address, amount)).wait();
    return wallet as unknown as Wallet;
  }

  const quote = (body: Record<string, unknown>) => quoteFirstRoute(api, body);

  // No gasPayment: sponsored is the default.
  const build = (quoteId: string, routeId: string, userAddress: string, recipient: string) =>
    buildSwapId(api, { quoteId, routeId, userAddress, recipient, waitForTxRequestMs: 20_000 });

  const nextSigning = (swapId: string, afterStep: number) => nextSigningOf(api, swapId, afterStep);

  const post = (swapId: string, rawTx: string) => submitSigned(api, swapId, rawTx);

  /**
   * The Solana step as a wallet (Phantom's signTransaction) does it: the service's fee payer pays,
   * the wallet signs its own slot and leaves the fee payer's empty. Checked on the way: a signature
   * by another key is refused with 409, and the same bytes twice answer the same transaction id,
   * the fee payer's signature (which the test can derive: the devnet's fee payer keys are public).
   */
  async function signSolanaStep(
    swapId: string,
    signing: SigningBody['signing'],
    wallet: Keypair,
  ): Promise<string> {
    const payload = signing.payload as SolanaPayload;
    const tx = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));
    const feePayer = feePayers.find((k) => k.publicKey.equals(tx.message.staticAccountKeys[0]));
    expect(feePayer).toBeDefined();
    expect(signing.executionHints).toMatchObject({
      feePayer: feePayer!.publicKey.toBase58(),
      gasPaidBy: 'service',
      userPaysLamports: '0',
    });
    expect(tx.message.header.numRequiredSignatures).toBe(2);

    const impostor = VersionedTransaction.deserialize(tx.serialize());
    impostor.signatures[1] = new Uint8Array(
      sign(null, impostor.message.serialize(), ed25519Key(Keypair.generate())),
    );
    const refused = await post(swapId, Buffer.from(impostor.serialize()).toString('base64'));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'TX_REQUEST_MISMATCH',
      details: {
        mismatches: [{ field: 'signature', expected: wallet.publicKey.toBase58(), actual: 'invalid' }],
      },
    });

    tx.sign([wallet]);
    const rawTx = Buffer.from(tx.serialize()).toString('base64');
    const coSigned = VersionedTransaction.deserialize(tx.serialize());
    coSigned.sign([feePayer!]);
    const txHash = bs58.encode(coSigned.signatures[0]);
    const first = await post(swapId, rawTx);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ swapId, status: 'submitted', step: signing.step, txHash });
    const again = await post(swapId, rawTx);
    expect(again.status).toBe(200);
    expect(again.body.data.txHash).toBe(txHash);
    return txHash;
  }

  /** Signs every step: Solana transactions with `wallets.solana`, typed data with `wallets.evm`. */
  async function signEveryStep(swapId: string, wallets: { solana?: Keypair; evm: Wallet }) {
    const asked: string[] = [];
    const solanaTxs: string[] = [];
    let step = 0;
    for (;;) {
      const res = await nextSigning(swapId, step);
      if (res.status === 409) return { asked, solanaTxs, terminal: res.body.error };
      const { signing } = res.body.data as SigningBody;
      const payload = signing.payload!;
      const at = `${signing.step!.current}/${signing.step!.total}`;
      if (payload.type === 'solana-versioned-transaction') {
        solanaTxs.push(await signSolanaStep(swapId, signing, wallets.solana!));
        asked.push(`${at} solana-versioned-transaction`);
      } else if (payload.type === 'evm-typed-data') {
        expect(signing.executionHints).toMatchObject({ gasPaidBy: 'service', userPaysWei: '0' });
        const { typedData } = payload;
        const { domain, types, value } = ethersTypedDataArgs(typedData);
        const rawTx = await wallets.evm.signTypedData(domain, types, value);
        const witness = (typedData.types.PermitWitnessTransferFrom ?? []).find(
          (f: { name: string }) => f.name === 'witness',
        )?.type;
        asked.push(`${at} ${typedData.primaryType}${witness ? `:${witness}` : ''}`);
        const submitted = await post(swapId, rawTx);
        expect(submitted.status).toBe(200);
      } else {
        throw new Error(
          `step ${at} asks the wallet for its own EVM transaction: the wallet has no ETH to pay it`,
        );
      }
      step = signing.step!.current;
    }
  }

  it('Solana → devnet-a: a wallet with USDC and 0 SOL signs one transaction, its fee paid by the service; the bridge hands it to devnet-a’s router, which swaps: the EVM recipient (0 ETH) signs nothing and gets WETH', async () => {
    const amount = 20_000_000n;
    const wallet = await freshSolanaWalletWith(amount);
    const recipient = Wallet.createRandom() as unknown as Wallet;
    expect(await lamportsOf(wallet.publicKey)).toBe(0n);
    expect(await providerA.getBalance(recipient.address)).toBe(0n);
    expect(await solanaUsdc(wallet.publicKey)).toBe(amount);
    const { quoteId, route } = await quote({
      fromChain: 'solana-devnet',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '20',
      slippageBps: 100,
      recipient: recipient.address,
    });
    const minimum = (expectedOutBaseUnits(route) * 9_900n) / 10_000n;

    const swapId = await build(quoteId, route.routeId, wallet.publicKey.toBase58(), recipient.address);
    const { asked, solanaTxs, terminal } = await signEveryStep(swapId, { solana: wallet, evm: recipient });

    // One signature, the Solana wallet's: its deposit's memo carries the destination swap.
    expect(asked).toEqual(['1/1 solana-versioned-transaction']);
    // Completed once the deposit confirmed on Solana (as a bridge-only route); the bridge relayer then
    // releases it with the message to devnet-a's router, which swaps it for the recipient.
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    // Landed as the service paid it: its fee payer first, charged the fee; the wallet charged nothing.
    const deposit = await solana.getTransaction(solanaTxs[0], {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(deposit?.meta?.err).toBeNull();
    expect(feePayers.map((k) => k.publicKey.toBase58())).toContain(
      deposit!.transaction.message.staticAccountKeys[0].toBase58(),
    );
    const weth = await waitFor(
      async () => {
        const balance = await balanceOnA('WETH', recipient.address);
        return balance > 0n ? balance : null;
      },
      {
        timeoutMs: 60_000,
        intervalMs: 300,
        description: 'the WETH of the destination swap at the EVM recipient',
      },
    );
    expect(weth).toBeGreaterThanOrEqual(minimum);
    expect(await lamportsOf(wallet.publicKey)).toBe(0n);
    expect(await solanaUsdc(wallet.publicKey)).toBe(0n); // exactly `amount` spent
    expect(await providerA.getBalance(recipient.address)).toBe(0n);
    expect(await balanceOnA('USDC', recipient.address)).toBe(0n); // swapped, not paid out as USDC
  });

  it('devnet-a → Solana: a wallet with USDC and 0 ETH signs a Permit and a BridgeToIntent witness; the Solana recipient (0 SOL, no USDC account) receives USDC', async () => {
    const wallet = await freshEvmWalletWith(15_000_000n);
    const recipient = Keypair.generate();
    expect(await providerA.getBalance(wallet.address)).toBe(0n);
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'solana-devnet',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '15',
      recipient: recipient.publicKey.toBase58(),
    });

    const swapId = await build(quoteId, route.routeId, wallet.address, recipient.publicKey.toBase58());
    const { asked, terminal } = await signEveryStep(swapId, { evm: wallet });

    expect(asked).toEqual(['1/2 Permit', '2/2 PermitWitnessTransferFrom:BridgeToIntent']);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    expect(await providerA.getBalance(wallet.address)).toBe(0n);
    expect(await balanceOnA('USDC', wallet.address)).toBe(0n);
    const received = await waitFor(
      async () => ((await solanaUsdc(recipient.publicKey)) > 0n ? solanaUsdc(recipient.publicKey) : null),
      {
        timeoutMs: 30_000,
        intervalMs: 300,
        description: 'bridged USDC on Solana',
      },
    );
    expect(received).toBe(expectedOutBaseUnits(route));
    // The recipient had no USDC account: the bridge's release created it, paid (fee and rent) by the
    // bridge authority; the recipient still holds no lamports of its own.
    expect(await lamportsOf(recipient.publicKey)).toBe(0n);
    const [release] = await solana.getSignaturesForAddress(
      usdcAccount(recipient.publicKey),
      { limit: 1 },
      'confirmed',
    );
    const releaseTx = await solana.getTransaction(release.signature, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(releaseTx!.transaction.message.staticAccountKeys[0].toBase58()).toBe(
      manifest.solana.bridgeAuthority,
    );
  });
});

/** An Ed25519 private key of a Solana keypair, for signing a message as another wallet would. */
function ed25519Key(keypair: Keypair) {
  // PKCS#8 prefix of an Ed25519 private key, then the 32-byte seed.
  return {
    key: Buffer.concat([
      Buffer.from('302e020100300506032b657004220420', 'hex'),
      keypair.secretKey.subarray(0, 32),
    ]),
    format: 'der' as const,
    type: 'pkcs8' as const,
  };
}
