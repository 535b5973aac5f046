import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { base64 } from '@scure/base';
import { CodedError, type CosmosSignDirectPayload, type RouteLeg } from '@swapgw/contracts';
import { makeCosmoshubPath } from '@cosmjs/amino';
import { GasPrice, SigningStargateClient } from '@cosmjs/stargate';
import {
  type CosmosDevnetChainManifest,
  type CosmosDevnetHandle,
  DEVNET_MNEMONIC,
  startCosmosDevnet,
} from '@swapgw/devnet';
import { BasicAllowance } from 'cosmjs-types/cosmos/feegrant/v1beta1/feegrant';
import { TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { ChainRegistry } from '../../chain-registry';
import { completeDevnetManifest } from '../../devnet-manifest/devnet-manifest.fixture';
import { splitSteps } from '../../step-split';
import { ChainFamilies } from '../chain-families';
import type { PayloadPolicy } from '../chain-family';
import type { CosmosSigningChainClient } from './cosmos-signing-client';
import { decodeSignedArtifact, verifySignedArtifact } from '../signed-artifact';
import { legStepSpecOf } from '../step-spec-families';
import { cosmosAddressOfPubkey } from './cosmos-address';
import { ibcVoucherDenom, ics20EscrowAddress } from './cosmos-denoms';

const POLICY = { ttlMs: 120_000 } as PayloadPolicy;

/**
 * A Cosmos step from the planner's spec to its block on the devnet's chains, through the family's
 * signing client (what signer-surface issues, checks and sends with): the payload names the
 * service's fee granter, an unmodified cosmjs DIRECT wallet signs it, the artifact decodes as
 * Cosmos and verifies against the payload, broadcast_tx_sync takes it and the client follows it to
 * its block. The wallet holds only the coin it swaps, and loses exactly that.
 */
describe('the Cosmos signing client on the local Cosmos devnet', () => {
  let handle: CosmosDevnetHandle;
  const signingClients: SigningStargateClient[] = [];
  const chainOf = (id: string): CosmosDevnetChainManifest => {
    const found = handle.chains.find((c) => c.manifest.id === id);
    if (!found) throw new Error(`no Cosmos devnet chain ${id}`);
    return found.manifest;
  };
  const devnet = {
    get hub() {
      return chainOf('cosmoshub-devnet');
    },
    get osmosis() {
      return chainOf('osmosis-devnet');
    },
    chain: chainOf,
  };
  /** A funded test wallet through an unmodified cosmjs client (the service's granter, a funder). */
  async function testWallet(chain: CosmosDevnetChainManifest, index: number) {
    const signer = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, {
      prefix: chain.bech32Prefix,
      hdPaths: [makeCosmoshubPath(index)],
    });
    const [{ address }] = await signer.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(chain.rpc, signer, {
      gasPrice: GasPrice.fromString(chain.minGasPrice),
      broadcastPollIntervalMs: 100,
    });
    signingClients.push(client);
    return { address, client };
  }
  let families: ChainFamilies;
  let hubClient: CosmosSigningChainClient;
  let osmosisClient: CosmosSigningChainClient;

  beforeAll(async () => {
    handle = await startCosmosDevnet({ standardPorts: false, blockMs: 200 });
    const registry = new ChainRegistry({
      manifest: { ...completeDevnetManifest(), cosmos: handle.chains.map((c) => c.manifest) },
    });
    families = new ChainFamilies(registry, 5_000);
    const lookup = (id: string) => {
      const found = families.cosmos(id);
      if (!found.ok) throw new Error(found.reason);
      return found.client;
    };
    hubClient = lookup('cosmoshub-devnet');
    osmosisClient = lookup('osmosis-devnet');
    const chains = {
      familyOf: (id: string) => registry.get(id).family,
      evmChainIdOf: () => 0,
      descriptorOf: (id: string) => registry.get(id),
    };
    stepsOf = (legs, signer, recipient, signerPublicKey) =>
      splitSteps(legs, chains, { gasPayment: 'user' }).map((step) =>
        legStepSpecOf(
          {
            step,
            leg: legs[step.legIndex],
            next: legs[step.legIndex + 1],
            spend: BigInt(legs[step.legIndex].amountIn),
            minOut: BigInt(legs[step.legIndex].minAmountOut),
            signer,
            signerPublicKey,
            recipient,
            finalRecipient: recipient,
            deadline: BigInt(Math.floor(Date.now() / 1000) + 600),
            sponsored: false,
          },
          chains,
        ),
      );
  });
  afterAll(async () => {
    families?.destroy();
    signingClients.forEach((c) => c.disconnect());
    await handle?.stop();
  });

  let stepsOf: (
    legs: RouteLeg[],
    signer: string,
    recipient: string,
    signerPublicKey: string,
  ) => ReturnType<typeof legStepSpecOf>[];

  /** A fresh wallet holding exactly `amount` of `denom`, the service's granter (test wallet 7) allowing its fees. */
  async function walletHoldingOnly(chainId: string, denom: string, amount: bigint) {
    const chain = devnet.chain(chainId);
    const wallet = await DirectSecp256k1HdWallet.generate(12, { prefix: chain.bech32Prefix });
    const [user] = await wallet.getAccounts();
    const granter = await testWallet(chain, 7);
    const funder = await testWallet(chain, 8);
    const grant = await granter.client.signAndBroadcast(
      granter.address,
      [
        {
          typeUrl: '/cosmos.feegrant.v1beta1.MsgGrantAllowance',
          value: {
            granter: granter.address,
            grantee: user.address,
            allowance: {
              typeUrl: '/cosmos.feegrant.v1beta1.BasicAllowance',
              value: BasicAllowance.encode({ spendLimit: [] }).finish(),
            },
          },
        },
      ],
      'auto',
    );
    expect(grant.code).toBe(0);
    const funded = await funder.client.sendTokens(
      funder.address,
      user.address,
      [{ denom, amount: amount.toString() }],
      'auto',
    );
    expect(funded.code).toBe(0);
    return { wallet, user, granter: granter.address };
  }

  async function sign(wallet: DirectSecp256k1HdWallet, payload: CosmosSignDirectPayload): Promise<string> {
    const { signed, signature } = await wallet.signDirect(payload.signerAddress, {
      bodyBytes: base64.decode(payload.signDoc.bodyBytes),
      authInfoBytes: base64.decode(payload.signDoc.authInfoBytes),
      chainId: payload.signDoc.chainId,
      accountNumber: BigInt(payload.signDoc.accountNumber),
    });
    return base64.encode(
      TxRaw.encode({
        bodyBytes: signed.bodyBytes,
        authInfoBytes: signed.authInfoBytes,
        signatures: [base64.decode(signature.signature)],
      }).finish(),
    );
  }

  it('ATOM → OSMO: the transfer step issued with the granter, signed, verified, sent and confirmed; the wallet loses exactly its ATOM', async () => {
    const hub = devnet.hub;
    const osmosis = devnet.osmosis;
    const amount = 3_000_000n;
    const { wallet, user, granter } = await walletHoldingOnly(hub.id, 'uatom', amount);
    const receiver = cosmosAddressOfPubkey('osmo', user.pubkey);
    const voucher = ibcVoucherDenom(`transfer/${osmosis.ibcChannels[hub.id]}/uatom`);
    const transfer = {
      kind: 'bridge',
      chain: hub.id,
      provider: 'ibc',
      tokenIn: { chain: hub.id, symbol: 'ATOM', address: 'uatom', decimals: 6 },
      tokenOut: { chain: osmosis.id, symbol: 'ATOM', address: voucher, decimals: 6 },
      amountIn: amount.toString(),
      expectedAmountOut: amount.toString(),
      minAmountOut: amount.toString(),
      spender: ics20EscrowAddress('cosmos', hub.ibcChannels[osmosis.id]),
      destinationChain: osmosis.id,
      estimatedDurationSeconds: 10,
    } as RouteLeg;
    const swap = {
      kind: 'swap',
      chain: osmosis.id,
      provider: 'osmosis',
      tokenIn: transfer.tokenOut,
      tokenOut: { chain: osmosis.id, symbol: 'OSMO', address: 'uosmo', decimals: 6 },
      amountIn: amount.toString(),
      expectedAmountOut: '1',
      minAmountOut: '1',
      spender: osmosis.crosschainSwapsContract as string,
      path: [voucher, 'uosmo'],
      poolIds: ['1'],
      estimatedDurationSeconds: 5,
    } as RouteLeg;
    const [step] = stepsOf(
      [transfer, swap],
      user.address,
      receiver,
      Buffer.from(user.pubkey).toString('hex'),
    );

    const built = await hubClient.buildPayload(
      { from: user.address, call: null, solana: null, cosmos: step.cosmos, feePayer: granter },
      POLICY,
      Date.now(),
    );
    if (built.kind !== 'ready') throw new Error(`${built.kind}: ${built.reason}`);
    expect(built.executionHints).toMatchObject({ feeGranter: granter, feePaidBy: 'service' });
    const payload = built.payload as CosmosSignDirectPayload;
    expect(payload.msgs).toEqual(step.cosmos!.msgs);

    const artifact = decodeSignedArtifact(await sign(wallet, payload));
    expect(artifact.family).toBe('cosmos');
    if (artifact.family !== 'cosmos') return;
    verifySignedArtifact(artifact, payload);
    expect(await hubClient.broadcast(artifact.rawTx, artifact.hash)).toEqual({ kind: 'sent' });
    const landed = await waitFor(async () => {
      const progress = await hubClient.progress(artifact.hash, 1);
      return progress.kind === 'unknown' ? undefined : progress;
    });
    expect(landed).toMatchObject({ kind: 'confirmed', confirmations: 1 });
    expect(await hubClient.readBalance(user.address, null)).toBe(0n);
    // The swap ran on arrival: the OSMO is the receiver's.
    const received = await waitFor(async () => {
      const balance = await osmosisClient.readBalance(receiver, 'uosmo');
      return balance > 0n ? balance : undefined;
    });
    expect(received).toBeGreaterThan(0n);
    // Sent once: the node knows it, and the client does not send it again.
    expect(await hubClient.resend(artifact.rawTx, artifact.hash)).toEqual({ kind: 'landed' });
  });

  it('refuses what the wallet did not sign as issued: tampered (409 TX_REQUEST_MISMATCH), foreign-signed (409), garbage (400 INVALID_SIGNED_TX)', async () => {
    const osmosis = devnet.osmosis;
    const amount = 1_000_000n;
    const { wallet, user, granter } = await walletHoldingOnly(osmosis.id, 'uosmo', amount);
    const usdc = ibcVoucherDenom(`transfer/${osmosis.ibcChannels['noble-devnet']}/uusdc`);
    const swap = {
      kind: 'swap',
      chain: osmosis.id,
      provider: 'osmosis',
      tokenIn: { chain: osmosis.id, symbol: 'OSMO', address: 'uosmo', decimals: 6 },
      tokenOut: { chain: osmosis.id, symbol: 'USDC', address: usdc, decimals: 6 },
      amountIn: amount.toString(),
      expectedAmountOut: '1',
      minAmountOut: '1',
      spender: 'osmo1pool',
      path: ['uosmo', usdc],
      poolIds: ['3'],
      estimatedDurationSeconds: 5,
    } as RouteLeg;
    const [step] = stepsOf([swap], user.address, user.address, Buffer.from(user.pubkey).toString('hex'));
    const built = await osmosisClient.buildPayload(
      { from: user.address, call: null, solana: null, cosmos: step.cosmos, feePayer: granter },
      POLICY,
      Date.now(),
    );
    if (built.kind !== 'ready') throw new Error(`${built.kind}: ${built.reason}`);
    const payload = built.payload as CosmosSignDirectPayload;
    const codeOf = (rawTx: string): string => {
      try {
        const artifact = decodeSignedArtifact(rawTx);
        if (artifact.family === 'evm-signature') return 'not a transaction';
        verifySignedArtifact(artifact, payload);
        return 'accepted';
      } catch (error) {
        return error instanceof CodedError ? error.code : (error as Error).message;
      }
    };
    const signed = await sign(wallet, payload);
    expect(codeOf(signed)).toBe('accepted');

    // Tampered: another body (a memo added) under the issued body's signature.
    const raw = TxRaw.decode(base64.decode(signed));
    const body = TxBody.decode(raw.bodyBytes);
    const tamperedBody = TxBody.encode({ ...body, memo: 'tampered' }).finish();
    expect(codeOf(base64.encode(TxRaw.encode({ ...raw, bodyBytes: tamperedBody }).finish()))).toBe(
      'TX_REQUEST_MISMATCH',
    );
    // Foreign-signed: another wallet signs the very SignDoc.
    const foreign = await DirectSecp256k1HdWallet.generate(12, { prefix: 'osmo' });
    const [other] = await foreign.getAccounts();
    const { signature } = await foreign.signDirect(other.address, {
      bodyBytes: base64.decode(payload.signDoc.bodyBytes),
      authInfoBytes: base64.decode(payload.signDoc.authInfoBytes),
      chainId: payload.signDoc.chainId,
      accountNumber: BigInt(payload.signDoc.accountNumber),
    });
    expect(
      codeOf(
        base64.encode(TxRaw.encode({ ...raw, signatures: [base64.decode(signature.signature)] }).finish()),
      ),
    ).toBe('TX_REQUEST_MISMATCH');
    expect(codeOf('Cg==garbage')).toBe('INVALID_SIGNED_TX');
    expect(codeOf(base64.encode(new Uint8Array([0x0a, 0x05, 1, 2])))).toBe('INVALID_SIGNED_TX');

    // Nothing refused reached the chain: the wallet still holds its OSMO.
    expect(await osmosisClient.readBalance(user.address, 'uosmo')).toBe(amount);
  });
});

/** Polls until `probe` gives a value (a tx in its block, a packet relayed). */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for the chain');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
