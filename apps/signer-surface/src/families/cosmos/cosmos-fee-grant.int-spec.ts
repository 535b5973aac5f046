// The Cosmos family of signer-surface against the devnet's Cosmos chains (no Kafka, no database):
// a step issued with the service's fee granter, which grants the wallet its x/feegrant allowance
// first; the wallet signs with an unmodified cosmjs DIRECT wallet; the submission checked as the
// kind checks it, sent and followed to its block.
import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient } from '@cosmjs/stargate';
import { base64 } from '@scure/base';
import { ChainRegistry, DevnetManifestView } from '@swapgw/chains';
import {
  type CosmosSigningChainClient,
  decodeSignedArtifact,
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
import { SignerChains } from '../../chains/signer-chains';
import { SigningRequestEntity } from '../../signing/signing-request.entity';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import type { CosmosFeeGranterSettings } from './cosmos-fee-granter-settings';
import { CosmosFeeGranters } from './cosmos-fee-granters';
import { cosmosFeeGrantIssue } from './cosmos-sign-direct/fee-grant.issue';

const HUB = 'cosmoshub-devnet';
/** The service's fee granter: test wallet 6 of the devnet mnemonic. */
const GRANTER_INDEX = 6;
const POLICY = { ttlMs: 120_000 } as PayloadPolicy;

describe('Cosmos fee granters on the local Cosmos devnet', () => {
  let handle: CosmosDevnetHandle;
  let hub: CosmosDevnetChainManifest;
  let chains: SignerChains;
  let client: CosmosSigningChainClient;
  const stargates: SigningStargateClient[] = [];

  beforeAll(async () => {
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
  });

  const grantersWith = (grantSteps: bigint) => {
    const key = Buffer.from(cosmosDevnetKey('cosmos', GRANTER_INDEX).privateKey).toString('hex');
    const settings = {
      keys: new RelayerKeySet(new Map([[HUB, [key]]])),
      grantSteps,
    } as CosmosFeeGranterSettings;
    return new CosmosFeeGranters(settings, chains);
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
  const rowOf = (from: string, to: string, amount: bigint, publicKey: Uint8Array) =>
    Object.assign(new SigningRequestEntity(), {
      chain: HUB,
      from,
      swapId: 'swp_cosmos',
      stepIndex: 1,
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

  async function signAndSend(wallet: DirectSecp256k1HdWallet, payload: CosmosSignDirectPayload) {
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

    const row = rowOf(user.address, granter, amount, user.pubkey);
    const built = await cosmosFeeGrantIssue.issue(
      row,
      client,
      { chains, policy: POLICY, nowMs: Date.now() },
      granters,
    );
    if (built.kind !== 'ready') throw new Error(`${built.kind}: ${built.reason}`);
    const fee = BigInt(client.feeOf(BigInt(built.executionHints.gasLimit)).amount);
    expect(built.executionHints).toMatchObject({ feeGranter: granter, feePaidBy: 'service' });
    // The grant is there before the wallet signs: five of this step's fees.
    expect(await client.allowanceLeft(granter, user.address, 'uatom')).toBe(fee * 5n);

    expect(await signAndSend(wallet, built.payload as CosmosSignDirectPayload)).toMatchObject({
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
    const issue = async (amount: bigint) => {
      const built = await cosmosFeeGrantIssue.issue(
        rowOf(user.address, granter, amount, user.pubkey),
        client,
        { chains, policy: POLICY, nowMs: Date.now() },
        granters,
      );
      if (built.kind !== 'ready') throw new Error(`${built.kind}: ${built.reason}`);
      return built;
    };
    const first = await issue(1_000_000n);
    expect(await signAndSend(wallet, first.payload as CosmosSignDirectPayload)).toMatchObject({
      kind: 'confirmed',
    });
    // One step's fee was granted and spent.
    const left = await client.allowanceLeft(granter, user.address, 'uatom');
    expect(left === null || left === 0n).toBe(true);

    const second = await issue(2_000_000n);
    const fee = BigInt(client.feeOf(BigInt(second.executionHints.gasLimit)).amount);
    expect(await client.allowanceLeft(granter, user.address, 'uatom')).toBe(fee);
    expect(await signAndSend(wallet, second.payload as CosmosSignDirectPayload)).toMatchObject({
      kind: 'confirmed',
    });
    expect(await client.readBalance(user.address, null)).toBe(0n);
  });

  it('answers SPONSORSHIP_UNAVAILABLE on a chain where the service has no granter', async () => {
    const granters = grantersWith(5n);
    const osmosis = chains.families.cosmos('osmosis-devnet');
    if (!osmosis.ok) throw new Error(osmosis.reason);
    const row = Object.assign(rowOf('osmo1x', 'osmo1y', 1n, new Uint8Array(33)), { chain: 'osmosis-devnet' });
    const refused = await cosmosFeeGrantIssue
      .issue(row, osmosis.client, { chains, policy: POLICY, nowMs: Date.now() }, granters)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CodedError);
    expect((refused as CodedError).code).toBe('SPONSORSHIP_UNAVAILABLE');
  });
});
