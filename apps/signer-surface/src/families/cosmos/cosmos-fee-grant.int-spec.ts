// The Cosmos family of signer-surface against the devnet's Cosmos chains and the sponsorship ledger
// (PostgreSQL, no Kafka): a step issued with the service's fee granter, which grants the wallet its
// x/feegrant allowance first; the wallet signs with an unmodified cosmjs DIRECT wallet; the
// submission checked as the kind checks it, sent and followed to its block; what the granter paid
// in the ledger, settled by the tracker, and the key's daily budget refusing what it cannot take.
import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient } from '@cosmjs/stargate';
import { base64 } from '@scure/base';
import { ChainRegistry, DevnetManifestView } from '@swapgw/chains';
import { metricsRegistry, SystemClock } from '@swapgw/runtime';
import type { DataSource } from 'typeorm';
import {
  type CosmosSigningChainClient,
  decodeSignedArtifact,
  nobleForwardingAddress,
  type PayloadPolicy,
  verifySignedArtifact,
} from '@swapgw/chains/families';
import { CodedError, type CosmosSignDirectPayload, type SigningStep } from '@swapgw/contracts';
import {
  cosmosDevnetKey,
  type CosmosDevnetChainManifest,
  type CosmosDevnetHandle,
  DEVNET_MNEMONIC,
  startCosmosDevnet,
} from '@swapgw/devnet';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { relayingRepositoriesOf } from '../../../test/relaying-repositories';
import { openSignerTestSchema, type SignerTestSchema } from '../../../test/signer-test-schema';
import { SignerChains } from '../../chains/signer-chains';
import { SigningRequestEntity } from '../../signing/signing-request.entity';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { SponsoredTransactionEntity } from '../../sponsorship/sponsored-transaction.entity';
import { RelayedTransactionTracker } from '../../sponsorship/tracking/relayed-transaction-tracker';
import { TrackedRows } from '../../sponsorship/tracking/tracked-rows';
import { SponsorshipBudgetLimits, WeiByChain } from '../../sponsorship/wei-settings';
import { CosmosFeeGrantTracking } from './cosmos-fee-grant-tracking';
import { type CosmosFeeGranterSettings, CosmosSponsorshipBudget } from './cosmos-fee-granter-settings';
import { CosmosFeeGranters } from './cosmos-fee-granters';
import { cosmosFeeGrantIssue } from './cosmos-sign-direct/fee-grant.issue';

const HUB = 'cosmoshub-devnet';
const NOBLE = 'noble-devnet';
/** The service's fee granter: test wallet 6 of the devnet mnemonic. */
const GRANTER_INDEX = 6;
const POLICY = { ttlMs: 120_000 } as PayloadPolicy;
const clock = new SystemClock();
/** A key whose budget is short of a step's fee and grant on the Hub. */
const POOR_OWNER = 'key-poor';

describe('Cosmos fee granters on the local Cosmos devnet', () => {
  let handle: CosmosDevnetHandle;
  let hub: CosmosDevnetChainManifest;
  let chains: SignerChains;
  let client: CosmosSigningChainClient;
  let database: SignerTestSchema;
  let dataSource: DataSource;
  const stargates: SigningStargateClient[] = [];

  beforeAll(async () => {
    database = await openSignerTestSchema('signer_cosmosfee');
    dataSource = database.dataSource;
    handle = await startCosmosDevnet({ standardPorts: false, blockMs: 200 });
    hub = handle.chains.find((c) => c.manifest.id === HUB)!.manifest;
    chains = new SignerChains(
      new ChainRegistry({
        manifest: {
          generatedAtMs: 0,
          chains: [],
          accounts: [],
          cosmos: handle.chains.map((c) => c.manifest),
        } as unknown as DevnetManifestView,
      }),
      5_000,
    );
    const lookup = chains.families.cosmos(HUB);
    if (!lookup.ok) throw new Error(lookup.reason);
    client = lookup.client;
  });
  afterAll(async () => {
    chains?.onApplicationShutdown();
    stargates.forEach((c) => c.disconnect());
    await handle?.stop();
    await database?.drop();
  });

  const ledger = () => relayingRepositoriesOf(dataSource);
  const rowsOf = (swapId: string) =>
    dataSource.manager.find(SponsoredTransactionEntity, { where: { swapId }, order: { createdAt: 'ASC' } });
  const trackerPass = () => {
    const rows = new TrackedRows(
      ledger().transactions,
      {
        pollMs: 100,
        stuckAfterMs: 1_000,
        feeBumpPercent: 25,
        batchSize: 20,
        leaseMs: 30_000,
        balanceRefreshMs: 10_000,
        reconcileMs: 3_600_000,
      },
      clock,
    );
    return new RelayedTransactionTracker(rows, [
      new CosmosFeeGrantTracking(chains, rows, lastGranters),
    ]).runOnce();
  };

  let lastGranters: CosmosFeeGranters;
  const grantersWith = (grantSteps: bigint, minBalance = 1_000_000n, chain = HUB) => {
    const key = Buffer.from(cosmosDevnetKey('cosmos', GRANTER_INDEX).privateKey).toString('hex');
    // 1 ATOM a day per key; the poor key 1,000 uatom on the Hub.
    const budget = new SponsorshipBudgetLimits(
      1_000_000n,
      new Map([[POOR_OWNER, new WeiByChain(1_000_000n, new Map([[HUB, 1_000n]]))]]),
    );
    const settings = {
      keys: new RelayerKeySet(new Map([[chain, [key]]])),
      grantSteps,
      minBalance,
      budget,
    } as CosmosFeeGranterSettings;
    lastGranters = new CosmosFeeGranters(
      settings,
      chains,
      dataSource,
      ledger().feeAccounts,
      new CosmosSponsorshipBudget(ledger().transactions, settings, clock),
      clock,
    );
    return lastGranters;
  };

  /** A fresh wallet (Keplr's DIRECT signer) holding exactly `amount` uatom, and nothing granted yet. */
  async function walletHoldingOnly(amount: bigint) {
    const wallet = await DirectSecp256k1HdWallet.generate(12, { prefix: 'cosmos' });
    const [user] = await wallet.getAccounts();
    const funderSigner = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, {
      prefix: 'cosmos',
      hdPaths: [makeCosmoshubPath(8)],
    });
    const [funder] = await funderSigner.getAccounts();
    const stargate = await SigningStargateClient.connectWithSigner(hub.rpc, funderSigner, {
      gasPrice: GasPrice.fromString(hub.minGasPrice),
      broadcastPollIntervalMs: 100,
    });
    stargates.push(stargate);
    const funded = await stargate.sendTokens(
      funder.address,
      user.address,
      [{ denom: 'uatom', amount: amount.toString() }],
      'auto',
    );
    expect(funded.code).toBe(0);
    return { wallet, user };
  }

  /** A signing request of a step sending `amount` uatom to `to`, its fee granted. */
  const rowOf = (
    from: string,
    to: string,
    amount: bigint,
    publicKey: Uint8Array,
    swapId = 'swp_cosmos',
    owner = 'key-a',
  ) =>
    Object.assign(new SigningRequestEntity(), {
      chain: HUB,
      from,
      swapId,
      stepIndex: 1,
      owner,
      spec: {
        family: 'cosmos-sign-direct',
        cosmos: {
          msgs: [
            {
              typeUrl: '/cosmos.bank.v1beta1.MsgSend',
              value: {
                fromAddress: from,
                toAddress: to,
                amount: [{ denom: 'uatom', amount: amount.toString() }],
              },
            },
          ],
          signerPublicKey: Buffer.from(publicKey).toString('hex'),
        },
        sponsored: { mode: 'cosmos-fee-grant' },
      } as SigningStep,
    });

  /** The step's payload, issued as the kind issues it (`client`: the Hub's unless said). */
  async function issued(row: SigningRequestEntity, granters: CosmosFeeGranters) {
    const built = await cosmosFeeGrantIssue.issue(
      row,
      client,
      { chains, policy: POLICY, nowMs: Date.now() },
      granters,
    );
    if (built.kind !== 'ready') throw new Error(`${built.kind}: ${built.reason}`);
    const fee = BigInt(client.feeOf(BigInt(built.executionHints.gasLimit)).amount);
    return { built, fee, payload: built.payload as CosmosSignDirectPayload };
  }

  /** The CodedError the issue of `row` is refused with. */
  async function refusalOf(
    row: SigningRequestEntity,
    granters: CosmosFeeGranters,
    on: CosmosSigningChainClient = client,
  ): Promise<CodedError> {
    const refused = await cosmosFeeGrantIssue
      .issue(row, on, { chains, policy: POLICY, nowMs: Date.now() }, granters)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CodedError);
    return refused as CodedError;
  }

  async function signAndSend(wallet: DirectSecp256k1HdWallet, payload: CosmosSignDirectPayload) {
    return sendAndFollow(await signedTx(wallet, payload));
  }

  /** The wallet's signature of the issued SignDoc, decoded and checked as the kind checks a submission. */
  async function signedTx(wallet: DirectSecp256k1HdWallet, payload: CosmosSignDirectPayload) {
    const { signed, signature } = await wallet.signDirect(payload.signerAddress, {
      bodyBytes: base64.decode(payload.signDoc.bodyBytes),
      authInfoBytes: base64.decode(payload.signDoc.authInfoBytes),
      chainId: payload.signDoc.chainId,
      accountNumber: BigInt(payload.signDoc.accountNumber),
    });
    const rawTx = base64.encode(
      TxRaw.encode({
        bodyBytes: signed.bodyBytes,
        authInfoBytes: signed.authInfoBytes,
        signatures: [base64.decode(signature.signature)],
      }).finish(),
    );
    const artifact = decodeSignedArtifact(rawTx);
    if (artifact.family !== 'cosmos') throw new Error(`decoded as ${artifact.family}`);
    verifySignedArtifact(artifact, payload);
    return artifact;
  }

  async function sendAndFollow(artifact: { rawTx: string; hash: string }) {
    expect(await client.broadcast(artifact.rawTx, artifact.hash)).toEqual({ kind: 'sent' });
    for (let attempt = 0; attempt < 100; attempt++) {
      const progress = await client.progress(artifact.hash, 1);
      if (progress.kind !== 'unknown') return progress;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${artifact.hash} never landed`);
  }

  it('grants a wallet that never had a grant, before its payload is handed out; the wallet loses exactly what it sends', async () => {
    const granters = grantersWith(5n);
    const granter = granters.granterOf(HUB)!;
    expect(granter).toBe(cosmosDevnetKey('cosmos', GRANTER_INDEX).address);
    const amount = 2_500_000n;
    const { wallet, user } = await walletHoldingOnly(amount);
    expect(await client.allowanceLeft(granter, user.address, 'uatom')).toBeNull();
    const granterBefore = await client.readBalance(granter, null);

    const { built, fee, payload } = await issued(rowOf(user.address, granter, amount, user.pubkey), granters);
    expect(built.executionHints).toMatchObject({ feeGranter: granter, feePaidBy: 'service' });
    // The grant is there before the wallet signs: five of this step's fees.
    expect(await client.allowanceLeft(granter, user.address, 'uatom')).toBe(fee * 5n);

    expect(await signAndSend(wallet, payload)).toMatchObject({
      kind: 'confirmed',
    });
    expect(await client.readBalance(user.address, null)).toBe(0n);
    expect(await client.allowanceLeft(granter, user.address, 'uatom')).toBe(fee * 4n);
    // The granter paid the step's fee and its grant's (and got the amount sent to it).
    const grantFee = BigInt(client.feeOf(200_000n).amount);
    expect(await client.readBalance(granter, null)).toBe(granterBefore + amount - fee - grantFee);
  });

  it('tops an allowance up that cannot pay the next step (a revoke and a grant in one transaction)', async () => {
    const granters = grantersWith(1n);
    const granter = granters.granterOf(HUB)!;
    const { wallet, user } = await walletHoldingOnly(3_000_000n);
    const issue = (amount: bigint) => issued(rowOf(user.address, granter, amount, user.pubkey), granters);
    const first = await issue(1_000_000n);
    expect(await signAndSend(wallet, first.payload)).toMatchObject({
      kind: 'confirmed',
    });
    // One step's fee was granted and spent.
    const left = await client.allowanceLeft(granter, user.address, 'uatom');
    expect(left === null || left === 0n).toBe(true);

    const second = await issue(2_000_000n);
    expect(await client.allowanceLeft(granter, user.address, 'uatom')).toBe(second.fee);
    expect(await signAndSend(wallet, second.payload)).toMatchObject({
      kind: 'confirmed',
    });
    expect(await client.readBalance(user.address, null)).toBe(0n);
  });

  it('answers SPONSORSHIP_UNAVAILABLE on a chain where the service has no granter', async () => {
    const granters = grantersWith(5n);
    const osmosis = chains.families.cosmos('osmosis-devnet');
    if (!osmosis.ok) throw new Error(osmosis.reason);
    const row = Object.assign(rowOf('osmo1x', 'osmo1y', 1n, new Uint8Array(33)), { chain: 'osmosis-devnet' });
    expect((await refusalOf(row, granters, osmosis.client)).code).toBe('SPONSORSHIP_UNAVAILABLE');
  });
  const gauge = async (name: string, granter: string) =>
    (await metricsRegistry().getSingleMetric(name)?.get())?.values.find(
      (v) => v.labels.chain === HUB && v.labels.address === granter,
    )?.value;

  it("records each grant and the step's fee in the ledger under the key; the tracker settles them at exactly what the granter paid", async () => {
    const granters = grantersWith(5n);
    const granter = granters.granterOf(HUB)!;
    const amount = 1_500_000n;
    const { wallet, user } = await walletHoldingOnly(amount);
    const spentBefore = await new CosmosSponsorshipBudget(
      ledger().transactions,
      { budget: new SponsorshipBudgetLimits(1n) } as CosmosFeeGranterSettings,
      clock,
    ).spentToday('key-a', HUB);
    const granterBefore = await client.readBalance(granter, null);
    const { fee, payload } = await issued(
      rowOf(user.address, granter, amount, user.pubkey, 'swp_ledger'),
      granters,
    );
    const grantFee = BigInt(client.feeOf(200_000n).amount);

    // The grant is in the ledger, under the step's key, before the wallet signs.
    const [grant] = await rowsOf('swp_ledger');
    expect(grant).toMatchObject({
      purpose: 'cosmos-fee-grant',
      chain: HUB,
      relayer: granter,
      to: user.address,
      owner: 'key-a',
      stepIndex: 1,
      nonce: null,
      gasLimit: grantFee,
    });

    // The submission records the step's fee with it (as the kind does), then it is sent.
    const artifact = await signedTx(wallet, payload);
    await dataSource.transaction((manager) =>
      granters.record(manager, {
        chain: HUB,
        granter,
        wallet: user.address,
        swapId: 'swp_ledger',
        stepIndex: 1,
        owner: 'key-a',
        rawTx: artifact.rawTx,
        txHash: artifact.hash,
        fee,
      }),
    );
    expect(await sendAndFollow(artifact)).toMatchObject({ kind: 'confirmed' });

    await trackerPass();
    const settled = await rowsOf('swp_ledger');
    expect(settled.map((r) => [r.purpose, r.status, r.costWei, r.txHash])).toEqual([
      ['cosmos-fee-grant', 'confirmed', grantFee, grant.txHash],
      ['cosmos-transaction', 'confirmed', fee, artifact.hash],
    ]);
    // What the ledger says the granter paid is what its balance lost (it also got the amount sent).
    const granterAfter = await client.readBalance(granter, null);
    expect(granterBefore + amount - granterAfter).toBe(grantFee + fee);
    expect(await client.readBalance(user.address, null)).toBe(0n);
    // The key's budget counts it; the balance gauge (what the relayer balance alerts compare) reads the granter.
    const budget = new CosmosSponsorshipBudget(
      ledger().transactions,
      { budget: new SponsorshipBudgetLimits(1n) } as CosmosFeeGranterSettings,
      clock,
    );
    expect((await budget.spentToday('key-a', HUB)) - spentBefore).toBe(grantFee + fee);
    expect(await gauge('swapgw_relayer_balance_wei', granter)).toBe(Number(granterAfter));
    expect(await gauge('swapgw_relayer_min_balance_wei', granter)).toBe(1_000_000);
  });

  it('refuses a step its key cannot pay for today (SPONSORSHIP_BUDGET_EXHAUSTED) before any grant is sent', async () => {
    const granters = grantersWith(5n);
    const granter = granters.granterOf(HUB)!;
    const { user } = await walletHoldingOnly(1_000_000n);
    const row = rowOf(user.address, granter, 1_000_000n, user.pubkey, 'swp_poor', POOR_OWNER);
    const refused = await refusalOf(row, granters);
    expect(refused.code).toBe('SPONSORSHIP_BUDGET_EXHAUSTED');
    expect(refused.details).toMatchObject({ chain: HUB, budgetWei: '1000' });
    expect(await client.allowanceLeft(granter, user.address, 'uatom')).toBeNull();
    expect(await rowsOf('swp_poor')).toEqual([]);
  });

  it('does not use a granter under its minimum balance (SPONSORSHIP_UNAVAILABLE); its gauges say so', async () => {
    const granterBalance = await client.readBalance(cosmosDevnetKey('cosmos', GRANTER_INDEX).address, null);
    const minBalance = granterBalance * 2n;
    const granters = grantersWith(5n, minBalance);
    const granter = granters.granterOf(HUB)!;
    const { user } = await walletHoldingOnly(1_000_000n);
    const row = rowOf(user.address, granter, 1_000_000n, user.pubkey, 'swp_dry');
    const refused = await refusalOf(row, granters);
    expect(refused.code).toBe('SPONSORSHIP_UNAVAILABLE');
    expect(refused.message).toContain(`under its minimum balance (${minBalance})`);
    expect(await client.allowanceLeft(granter, user.address, 'uatom')).toBeNull();
    expect(await rowsOf('swp_dry')).toEqual([]);
    // SwapgwRelayerBalanceLow / Critical: swapgw_relayer_balance_wei < 2 × swapgw_relayer_min_balance_wei.
    const balance = (await gauge('swapgw_relayer_balance_wei', granter))!;
    const minimum = (await gauge('swapgw_relayer_min_balance_wei', granter))!;
    expect(balance).toBeLessThan(2 * minimum);
  });

  it('registers a Noble forwarding account with the granter once: a second call sends nothing; the ledger has it', async () => {
    const granters = grantersWith(5n, 1n, NOBLE);
    const lookup = chains.families.cosmos(NOBLE);
    if (!lookup.ok) throw new Error(lookup.reason);
    const noble = lookup.client;
    const granter = granters.granterOf(NOBLE)!;
    const target = {
      channel: 'channel-0',
      recipient: cosmosDevnetKey('osmo', 3).address,
      fallback: '',
      memo: '{"note":"devnet memo"}',
    };
    expect(await noble.forwardingAccountOf(target)).toEqual({
      address: nobleForwardingAddress('noble', target),
      exists: false,
    });
    const step = { swapId: 'swp_forwarding', stepIndex: 1, owner: 'key-a' };
    const address = await granters.ensureForwardingAccount(noble, target, step);
    expect(address).toBe(nobleForwardingAddress('noble', target));
    expect(await noble.forwardingAccountOf(target)).toEqual({ address, exists: true });
    const sequence = (await noble.accountOf(granter))!.sequence;
    // The same account again (an issue retried): nothing is sent.
    expect(await granters.ensureForwardingAccount(noble, target, { ...step, stepIndex: 2 })).toBe(address);
    expect((await noble.accountOf(granter))!.sequence).toBe(sequence);
    const rows = await rowsOf('swp_forwarding');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ chain: NOBLE, relayer: granter, to: address, stepIndex: 1 });
  });
});
