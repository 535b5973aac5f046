import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { Connection, Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';
import { amountAfterBridgeFee, MEMO_PROGRAM_ID, solanaDepositNonce } from '@swapgw/chains/solana-bridge';
import {
  DEVNET_BRIDGE_DEPOSIT_TO_ABI,
  DEVNET_MNEMONIC,
  solanaConnection,
  solanaTestWallet,
} from '@swapgw/devnet';
import { cosmosSigner, createGatewayClient, ethersSigner, runSwap, type RunSwapEvent } from '@swapgw/sdk';
import { waitFor } from '@swapgw/testing';
import { solanaSigner } from '@swapgw/sdk/solana';
import { freshSolanaWalletWith, splBalanceOf } from '@swapgw/testing/solana';
import { formatUnits, Interface, parseUnits, Wallet } from 'ethers';
import { DevnetEvm } from './support/devnet-evm';
import { connectE2eApi, type E2eApi } from './support/e2e-api';

// USDC between Noble and the other families through the devnet bridge's Cosmos end, shaped like
// Circle's CCTP on Noble: from devnet-a a zero-gas EVM wallet signs typed data only (the service's
// relayer carries the bridge's depositTo, the Noble account as its 32-byte recipient) and the relayer
// mints uusdc on Noble; from Solana a wallet without SOL signs one deposit (the service's fee payer
// pays) whose memo names the Noble account, and the relayer mints it there; from Noble a wallet
// holding nothing but the USDC it sends signs one MsgDepositForBurn (fee paid by the service's fee
// granter), and the relayer pays USDC on devnet-a or Solana. Balances are read on every chain touched.
const devnet = new DevnetEvm();
const manifest = devnet.manifest;
const chainOf = (id: string) => devnet.cosmos(id);
const noble = chainOf('noble-devnet');
const solanaMint = new PublicKey(manifest.solana.tokens.USDC.mint);
const quotedOf = (events: RunSwapEvent[]) => events.find((e) => e.type === 'quoted')!;

describe('USDC between Noble (CCTP) and the EVM devnets and Solana', () => {
  let e2e: E2eApi;
  let solana: Connection;
  const clients: { disconnect(): void }[] = [];

  beforeAll(async () => {
    e2e = await connectE2eApi('swap-cosmos-bridge-e2e');
    solana = solanaConnection(manifest.solana.rpcUrl);
  });
  afterAll(() => {
    clients.forEach((c) => c.disconnect());
    devnet.destroy();
  });

  const gateway = () =>
    createGatewayClient({ baseUrl: process.env.GATEWAY_URL as string, apiKey: e2e.apiKey });

  const nobleBalance = async (address: string): Promise<bigint> => {
    const reader = await StargateClient.connect(noble.rpc);
    clients.push(reader);
    return BigInt((await reader.getBalance(address, 'uusdc')).amount);
  };

  /** A fresh Keplr-like wallet on Noble holding exactly `amount` uusdc, sent by test wallet 8. */
  async function nobleWalletHolding(amount: bigint) {
    const wallet = await DirectSecp256k1HdWallet.generate(12, { prefix: 'noble' });
    const [user] = await wallet.getAccounts();
    const funderSigner = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, {
      prefix: 'noble',
      hdPaths: [makeCosmoshubPath(8)],
    });
    const [funder] = await funderSigner.getAccounts();
    const funding = await SigningStargateClient.connectWithSigner(noble.rpc, funderSigner, {
      gasPrice: GasPrice.fromString(noble.minGasPrice),
      broadcastPollIntervalMs: 100,
    });
    clients.push(funding);
    const sent = await funding.sendTokens(
      funder.address,
      user.address,
      [{ denom: 'uusdc', amount: amount.toString() }],
      'auto',
    );
    expect(sent.code).toBe(0);
    return { wallet, user, publicKey: Buffer.from(user.pubkey).toString('hex') };
  }

  /** What `read` gives once it is positive (a payout on the destination). */
  const paidOut = (read: () => Promise<bigint>, description: string) =>
    waitFor(
      async () => {
        const held = await read();
        return held > 0n ? held : null;
      },
      { timeoutMs: 60_000, description },
    );

  it('lists Noble USDC (denom uusdc) as supported, and the bridge pairs between it and devnet-a and Solana, both ways', async () => {
    const tokens = await e2e.client.get('/tokens', { query: { chainRef: noble.id, supportedOnly: '1' } });
    expect(tokens.status).toBe(200);
    e2e.openApi.assertResponse('GET', '/tokens', tokens.status, tokens.body);
    expect(tokens.body.data.tokens).toEqual([expect.objectContaining({ symbol: 'USDC', denom: 'uusdc' })]);
    const pairs = await e2e.client.get('/pairs', { query: { limit: 10000 } });
    expect(pairs.status).toBe(200);
    const bridged = (
      pairs.body.data.pairs as { fromChain: string; toChain: string; tokenIn: string }[]
    ).filter((p) => (p.fromChain === noble.id || p.toChain === noble.id) && p.tokenIn === 'USDC');
    expect(bridged).toEqual(
      expect.arrayContaining(
        [
          ['devnet-a', noble.id],
          [noble.id, 'devnet-a'],
          [noble.id, manifest.solana.id],
          [manifest.solana.id, noble.id],
        ].map(([fromChain, toChain]) =>
          expect.objectContaining({ fromChain, toChain, tokenIn: 'USDC', tokenOut: 'USDC' }),
        ),
      ),
    );
  });

  it('USDC on devnet-a → USDC on Noble for a zero-gas EVM wallet: typed data only; completed once Noble minted it', async () => {
    const amount = 12_000_000n; // 12 USDC
    const wallet = await devnet.freshWalletHolding('devnet-a', 'USDC', amount, 6);
    const nobleRecipient = (
      await (await DirectSecp256k1HdWallet.generate(12, { prefix: 'noble' })).getAccounts()
    )[0].address;
    const events: RunSwapEvent[] = [];
    const result = await runSwap({
      client: gateway(),
      quoteRequest: {
        fromChain: 'devnet-a',
        toChain: noble.id,
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '12',
      },
      route: (routes) => routes.find((route) => route.providers.includes('devnet-bridge')),
      userAddress: wallet.address,
      build: { recipient: nobleRecipient, waitForTxRequestMs: 20_000 },
      signers: [ethersSigner(wallet)],
      timeoutMs: 120_000,
      onEvent: (event) => events.push(event),
    });
    expect(result.swap).toMatchObject({ status: 'completed', failure: null });
    // Minted on Noble when the swap says completed (settled by the mint): read at once, no waiting.
    const credited = await nobleBalance(nobleRecipient);
    expect(credited).toBe(parseUnits(quotedOf(events).route.minAmountOut, 6));
    expect(credited).toBe(amountAfterBridgeFee(amount, manifest.bridge.feeBps));
    // The wallet signed typed data only (a permit, the intent): it never held gas.
    expect(events.filter((e) => e.type === 'signing').map((e) => e.payload.type)).not.toContain(
      'evm-transaction',
    );
    expect(await devnet.balanceOf('devnet-a', 'USDC', wallet.address)).toBe(0n);
    expect(await devnet.ethOf('devnet-a', wallet.address)).toBe(0n);

    // GET /swap's last step: the relayer's transaction that ran the intent, confirmed once Noble's mint
    // was read. Its receipt's DepositTo (to Noble's bridge id 4) numbers the message Noble minted:
    // source domain devnet-a's bridge id (31337), the deposit's nonce.
    expect(result.swap.steps.every((step) => step.status === 'confirmed')).toBe(true);
    const deposit = result.swap.steps.at(-1)!.txHash!;
    const receipt = await devnet.provider('devnet-a').getTransactionReceipt(deposit);
    const bridge = new Interface(DEVNET_BRIDGE_DEPOSIT_TO_ABI);
    const [depositTo] = receipt!.logs
      .filter((log) => log.address.toLowerCase() === devnet.chain('devnet-a').bridge.address.toLowerCase())
      .map((log) => bridge.parseLog(log))
      .filter((parsed) => parsed?.name === 'DepositTo');
    expect(depositTo!.args.destinationChainId).toBe(4n);
    const noble0 = await StargateClient.connect(noble.rpc);
    clients.push(noble0);
    const [mint] = await noble0.searchTx(
      `circle.cctp.v1.MessageReceived.source_domain='${devnet.chain('devnet-a').chainId}' AND circle.cctp.v1.MessageReceived.nonce='"${depositTo!.args.nonce}"'`,
    );
    expect(mint?.code).toBe(0);
    // Completed after the mint, not at the deposit's confirmation: the deposit's step was confirmed no
    // earlier than the Noble block that minted it.
    const mintBlock = await noble0.getBlock(mint!.height);
    expect(result.swap.steps.at(-1)!.confirmedAtMs).toBeGreaterThanOrEqual(Date.parse(mintBlock.header.time));
  });

  it('USDC on Solana → USDC on Noble for a wallet without SOL: one deposit, the service’s fee payer pays; completed once Noble minted it', async () => {
    const amount = 5_000_000n; // 5 USDC
    const wallet = await freshSolanaWalletWith(solana, solanaMint, solanaTestWallet(4), amount);
    const nobleRecipient = (
      await (await DirectSecp256k1HdWallet.generate(12, { prefix: 'noble' })).getAccounts()
    )[0].address;
    const events: RunSwapEvent[] = [];
    const result = await runSwap({
      client: gateway(),
      quoteRequest: {
        fromChain: manifest.solana.id,
        toChain: noble.id,
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '5',
      },
      route: (routes) => routes.find((route) => route.providers.includes('devnet-bridge')),
      userAddress: wallet.publicKey.toBase58(),
      // No gasPayment: sponsored, the service's Solana fee payer pays the fee and any rent.
      build: { recipient: nobleRecipient, waitForTxRequestMs: 20_000 },
      signers: [solanaSigner(wallet)],
      timeoutMs: 120_000,
      onEvent: (event) => events.push(event),
    });
    expect(result.swap).toMatchObject({ status: 'completed', failure: null });
    // Minted on Noble when the swap says completed: read at once, no waiting.
    const credited = await nobleBalance(nobleRecipient);

    const quoted = quotedOf(events);
    if (quoted.type !== 'quoted') throw new Error('no quote');
    expect(quoted.route.providers).toEqual(['devnet-bridge']);
    expect(quoted.route.signatures.map((s) => [s.chain, s.payloadType])).toEqual([
      [manifest.solana.id, 'solana-versioned-transaction'],
    ]);
    // The one transaction: the service's fee payer first, the wallet's slot second; its memo names
    // Noble's CCTP domain and the noble1… account.
    const signing = events.find((e) => e.type === 'signing');
    if (signing?.type !== 'signing' || signing.payload.type !== 'solana-versioned-transaction')
      throw new Error('no Solana transaction to sign');
    const tx = VersionedTransaction.deserialize(Buffer.from(signing.payload.transaction, 'base64'));
    expect(tx.message.header.numRequiredSignatures).toBe(2);
    expect(tx.message.staticAccountKeys[1].equals(wallet.publicKey)).toBe(true);
    const memo = tx.message.compiledInstructions
      .filter((ix) => tx.message.staticAccountKeys[ix.programIdIndex].equals(MEMO_PROGRAM_ID))
      .map((ix) => Buffer.from(ix.data).toString('utf8'));
    expect(memo).toEqual([`swapgw-bridge:v1:4:${nobleRecipient}`]);

    // GET /swap's step: the deposit, confirmed once Noble's mint was read (settled by the mint).
    expect(result.swap.steps.map((s) => [s.chain, s.status])).toEqual([[manifest.solana.id, 'confirmed']]);
    const deposit = result.swap.steps[0].txHash!;

    // Solana: exactly the 5 USDC gone and not one lamport (it never had any). Noble: the quoted
    // amount, the bridge's fee kept on deposit, minted by the message of source domain 5 and the
    // deposit's nonce.
    expect(await splBalanceOf(solana, solanaMint, wallet.publicKey)).toBe(0n);
    expect(await solana.getBalance(wallet.publicKey, 'confirmed')).toBe(0);
    expect(credited).toBe(parseUnits(quoted.route.minAmountOut, 6));
    expect(credited).toBe(amountAfterBridgeFee(amount, manifest.bridge.feeBps));
    const noble0 = await StargateClient.connect(noble.rpc);
    clients.push(noble0);
    const [mint] = await noble0.searchTx(
      `circle.cctp.v1.MessageReceived.source_domain='5' AND circle.cctp.v1.MessageReceived.nonce='"${solanaDepositNonce(deposit)}"'`,
    );
    expect(mint?.code).toBe(0);
  });

  /**
   * `amount` (6 decimals) of USDC sent from a fresh Noble wallet holding exactly that to `recipient`
   * on `toChain` through runSwap and cosmosSigner: the swap completes, the wallet signed one
   * MsgDepositForBurn and holds nothing left; resolves to its message and the quoted minimum.
   */
  async function sendFromNoble(amount: bigint, toChain: string, recipient: string) {
    const { wallet, user, publicKey } = await nobleWalletHolding(amount);
    const events: RunSwapEvent[] = [];
    const result = await runSwap({
      client: gateway(),
      quoteRequest: {
        fromChain: noble.id,
        toChain,
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: formatUnits(amount, 6),
      },
      route: (routes) => routes.find((route) => route.providers.includes('devnet-bridge')),
      userAddress: user.address,
      build: { gasPayment: 'user', recipient, userPublicKey: publicKey },
      signers: [cosmosSigner(wallet)],
      timeoutMs: 120_000,
      onEvent: (event) => events.push(event),
    });
    expect(result.swap).toMatchObject({ status: 'completed', failure: null });
    const signing = events.find((e) => e.type === 'signing');
    expect(signing?.payload).toMatchObject({
      type: 'cosmos-sign-direct',
      msgs: [
        {
          typeUrl: '/circle.cctp.v1.MsgDepositForBurn',
          value: { from: user.address, amount: amount.toString(), burnToken: 'uusdc' },
        },
      ],
    });
    // The fee was the granter's: the wallet lost exactly what it sent.
    expect(await nobleBalance(user.address)).toBe(0n);
    const payload = signing!.payload as { msgs: { value: Record<string, unknown> }[] };
    return { burn: payload.msgs[0].value, minOut: parseUnits(quotedOf(events).route.minAmountOut, 6) };
  }

  it('USDC on Noble → USDC on devnet-a: one MsgDepositForBurn, fee granted; the wallet loses exactly its USDC', async () => {
    const evmRecipient = Wallet.createRandom().address;
    const { burn, minOut } = await sendFromNoble(7_000_000n, 'devnet-a', evmRecipient);
    expect(burn.destinationDomain).toBe(31337);
    const paid = await paidOut(
      () => devnet.balanceOf('devnet-a', 'USDC', evmRecipient),
      'the USDC paid on devnet-a',
    );
    expect(paid).toBe(minOut);
  });

  it('USDC on Noble → USDC on Solana: CCTP domain 5, the Solana wallet paid', async () => {
    const solanaRecipient = Keypair.generate().publicKey;
    const { burn, minOut } = await sendFromNoble(3_000_000n, manifest.solana.id, solanaRecipient.toBase58());
    expect(burn.destinationDomain).toBe(5);
    const paid = await paidOut(
      () => splBalanceOf(solana, solanaMint, solanaRecipient),
      'the USDC paid on Solana',
    );
    expect(paid).toBe(minOut);
  });
});
