import { base64 } from '@scure/base';
import type { CosmosSignDirectPayload, TransactionStatusResult } from '@swapgw/contracts';
import { CodedError } from '@swapgw/contracts';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { ChainDescriptor, CosmosChainTraits } from '../../chain-descriptor';
import type { SponsoredFeeRates } from '../../sponsored-gas';
import type {
  BroadcastOutcome,
  PayloadBuild,
  PayloadPolicy,
  ResendOutcome,
  SigningChainClientBase,
  StepPayloadRequest,
  TransactionProgress,
} from '../chain-family';
import type { SignedTransactionArtifact } from '../signed-artifact-codec';
import { buildCosmosSignDoc } from './cosmos-sign-doc';
import type { ForwardingTarget } from './noble-forwarding';
import { CosmosStatusClient } from './cosmos-status-client';
import { cosmosFeeOf, cosmosFeeRatesOf, parseCosmosGasPrice } from './cosmos-sponsored-gas';

/** Gas asked above what the chain's simulation used: a quarter more, as wallets' "auto" fee. */
const GAS_HEADROOM_PERCENT = 125n;

class CosmosRestError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

interface RestAccount {
  account_number?: string;
  sequence?: string;
  pub_key?: { key?: string } | null;
}

/** The Cosmos family's signing client (a SigningChainClient): accounts, fee grants, forwarding accounts. */
export interface CosmosSigningChainClient extends SigningChainClientBase {
  readonly family: 'cosmos';
  /** An account's number, sequence and key (base64) as the chain has them; null when it has none. */
  accountOf(
    address: string,
  ): Promise<{ accountNumber: bigint; sequence: bigint; pubkey: string | null } | null>;
  /** What `granter`'s x/feegrant allowance to `grantee` may still spend of `denom` (null: none). */
  allowanceLeft(granter: string, grantee: string, denom: string): Promise<bigint | 'unlimited' | null>;
  /** Noble's x/forwarding: the forwarding account of `target` and whether it is registered. */
  forwardingAccountOf(target: ForwardingTarget): Promise<{ address: string; exists: boolean }>;
  /** The fee of `gasLimit` at the node's minimum gas price. */
  feeOf(gasLimit: bigint): { denom: string; amount: string };
}

/**
 * A Cosmos SDK chain the services sign for (issue 46): reads over its REST API (bank balances, the
 * signer's account), broadcasts and status over its CometBFT RPC (CosmosStatusClient). A step's
 * payload is the SignDoc of its messages (buildCosmosSignDoc) with the account's number and sequence
 * read now, its gas the chain's simulation of the very transaction with a quarter more, its fee that
 * gas at the node's minimum gas price, paid by `request.feePayer` as `fee.granter` (the service's
 * fee granter, under its x/feegrant allowance to the wallet). Bank balances need no allowance.
 */
export class CosmosSigningChainClientImpl implements CosmosSigningChainClient {
  readonly family = 'cosmos' as const;
  readonly traits: CosmosChainTraits;
  private readonly rpc: CosmosStatusClient;

  constructor(
    readonly chain: ChainDescriptor,
    private readonly timeoutMs: number,
  ) {
    if (!chain.rpcUrl || !chain.cosmos)
      throw new Error(`Chain ${chain.id} is not a Cosmos chain with an RPC`);
    this.traits = chain.cosmos;
    this.rpc = new CosmosStatusClient({ id: chain.id, rpcUrl: chain.rpcUrl }, timeoutMs);
  }

  assertTxHash(txHash: string): void {
    this.rpc.assertTxHash(txHash);
  }

  transactionStatus(txHash: string): Promise<TransactionStatusResult> {
    return this.rpc.transactionStatus(txHash);
  }

  /** `token` null = the chain's native denom; else the denom (`uosmo`, `ibc/…`). */
  async readBalance(holder: string, token: string | null): Promise<bigint> {
    const denom = token ?? this.traits.nativeDenom;
    const body = await this.rest<{ balance?: { amount?: string } }>(
      `/cosmos/bank/v1beta1/balances/${encodeURIComponent(holder)}/by_denom?denom=${encodeURIComponent(denom)}`,
    );
    return BigInt(body.balance?.amount ?? '0');
  }

  /** A bank balance is spent by its owner's signature: no allowances. */
  async readAllowance(): Promise<null> {
    return null;
  }

  broadcast(rawTx: string): Promise<BroadcastOutcome> {
    return this.rpc.broadcastTxSync(rawTx);
  }

  isUnreachable(error: unknown): boolean {
    if (error instanceof CosmosRestError) return error.status === null || error.status >= 500;
    if (error instanceof CodedError) return error.code === 'STATUS_UPSTREAM_ERROR';
    return error instanceof TypeError || (error as Error)?.name === 'TimeoutError';
  }

  /**
   * False once the account's sequence moved past the transaction's without it landing: another
   * transaction of the wallet took its sequence, so it can never land.
   */
  async isStillLandable(artifact: SignedTransactionArtifact): Promise<boolean> {
    if (artifact.family !== 'cosmos') return true;
    return (await this.conflictOf(artifact.rawTx, artifact.hash)) === null;
  }

  async buildPayload(
    request: StepPayloadRequest,
    policy: PayloadPolicy,
    nowMs: number,
  ): Promise<PayloadBuild> {
    const spec = request.cosmos;
    if (!spec) return { kind: 'invalid', reason: 'a Cosmos step needs its cosmos spec' };
    if (!request.feePayer)
      return {
        kind: 'invalid',
        reason: "a Cosmos step's fee is paid by the service's fee granter, and none was named",
      };
    const account = await this.account(request.from);
    if (!account)
      return {
        kind: 'would-revert',
        reason: `${request.from} has no account on ${this.chain.id}: it holds nothing`,
      };
    const pubkey =
      account.pub_key?.key ??
      (spec.signerPublicKey ? base64.encode(Buffer.from(spec.signerPublicKey, 'hex')) : undefined);
    if (!pubkey)
      return {
        kind: 'invalid',
        reason: `${request.from} never sent a transaction on ${this.chain.id}: its public key (userPublicKey) must be told at build`,
      };
    const price = parseCosmosGasPrice(this.traits.minGasPrice);
    const specOf = (gasLimit: bigint) => ({
      chainId: this.traits.chainId,
      bech32Prefix: this.traits.bech32Prefix,
      signerAddress: request.from,
      signerPubkey: pubkey,
      accountNumber: account.account_number ?? '0',
      sequence: account.sequence ?? '0',
      msgs: spec.msgs,
      gasLimit: gasLimit.toString(),
      fee: [{ denom: price.denom, amount: cosmosFeeOf(gasLimit, price).toString() }],
      feeGranter: request.feePayer,
      ...(spec.memo ? { memo: spec.memo } : {}),
    });
    // The simulation runs the very messages with the wallet's key and no fee (as cosmjs's "auto"
    // does): the granter's allowance may not exist yet, and a fee's deduction costs the same gas.
    const draft = buildCosmosSignDoc({ ...specOf(1n), fee: [], feeGranter: undefined });
    if (draft.kind !== 'ready') return draft;
    const simulated = await this.simulate(draft.payload);
    if (simulated.kind === 'fails') return { kind: 'would-revert', reason: simulated.reason };
    const gasLimit = (simulated.gasUsed * GAS_HEADROOM_PERCENT + 99n) / 100n;
    const built = buildCosmosSignDoc(specOf(gasLimit));
    if (built.kind !== 'ready') return built;
    const fee = cosmosFeeOf(gasLimit, price);
    return {
      kind: 'ready',
      payload: built.payload,
      executionHints: {
        gasLimit: gasLimit.toString(),
        fee: `${fee}${price.denom}`,
        feeGranter: request.feePayer,
        sequence: account.sequence ?? '0',
        feePaidBy: 'service',
      },
      expiresAtMs: nowMs + policy.ttlMs,
      cost: { maxFee: fee, rent: 0n, feePerUnit: price.numerator / price.denominator },
      recommendedWallet: 'Keplr',
    };
  }

  /**
   * CometBFT blocks are final: a transaction in a block is confirmed (code 0) or failed (another
   * code, with `codespace/code: log`); one `/tx` does not know is `unknown`.
   */
  async progress(txHash: string): Promise<TransactionProgress> {
    const tx = await this.rpc.committed(txHash);
    if (!tx) return { kind: 'unknown' };
    if (tx.code !== 0) return { kind: 'failed', blockNumber: tx.height, confirmations: 1, reason: tx.reason };
    return {
      kind: 'confirmed',
      blockNumber: tx.height,
      confirmations: 1,
      required: 1,
      blockTimeMs: tx.blockTimeMs,
    };
  }

  /** Sends it again unless it landed, or another transaction of the wallet took its sequence. */
  async resend(rawTx: string, txHash: string): Promise<ResendOutcome> {
    const where = await this.progress(txHash);
    if (where.kind !== 'unknown') return { kind: 'landed' };
    const conflict = await this.conflictOf(rawTx, txHash);
    if (conflict) return { kind: 'expired', reason: conflict };
    const outcome = await this.rpc.broadcastTxSync(rawTx);
    if (outcome.kind === 'sent' || outcome.kind === 'already-known') return { kind: 'sent' };
    return { kind: 'send-failed', message: outcome.message };
  }

  /**
   * The chain's minimum gas price (what its nodes take; the registry's figure, no RPC call): exact in
   * `gasPrice`, rounded up to a whole base unit per gas in `feePerGas`; no account rent.
   */
  async fees(): Promise<SponsoredFeeRates> {
    return cosmosFeeRatesOf(this.traits.minGasPrice);
  }

  /** An account's number, sequence and key (base64) as the chain has them; null when it has none. */
  async accountOf(
    address: string,
  ): Promise<{ accountNumber: bigint; sequence: bigint; pubkey: string | null } | null> {
    const account = await this.account(address);
    if (!account) return null;
    return {
      accountNumber: BigInt(account.account_number ?? '0'),
      sequence: BigInt(account.sequence ?? '0'),
      pubkey: account.pub_key?.key ?? null,
    };
  }

  /**
   * Noble's x/forwarding `Query/Address` (`/noble/forwarding/v1/address/{channel}/{recipient}/{fallback}`,
   * on the devnet with `?memo=`): the forwarding account of `target` and whether it is registered.
   */
  async forwardingAccountOf(target: ForwardingTarget): Promise<{ address: string; exists: boolean }> {
    const segment = (value: string) => encodeURIComponent(value);
    const memo = target.memo ? `?memo=${encodeURIComponent(target.memo)}` : '';
    const body = await this.rest<{ address?: string; exists?: boolean }>(
      `/noble/forwarding/v1/address/${segment(target.channel)}/${segment(target.recipient)}/${segment(target.fallback)}${memo}`,
    );
    if (typeof body.address !== 'string') throw new Error('the forwarding query answered no address');
    return { address: body.address, exists: body.exists === true };
  }

  /**
   * What `granter`'s x/feegrant allowance to `grantee` may still spend of `denom`: null when there is
   * no allowance, `unlimited` when its BasicAllowance has no spend limit.
   */
  async allowanceLeft(granter: string, grantee: string, denom: string): Promise<bigint | 'unlimited' | null> {
    let body: { allowance?: { allowance?: Record<string, unknown> } };
    try {
      body = await this.rest(
        `/cosmos/feegrant/v1beta1/allowance/${encodeURIComponent(granter)}/${encodeURIComponent(grantee)}`,
      );
    } catch (error) {
      if (error instanceof CosmosRestError && error.status !== null && error.status < 500) return null;
      throw error;
    }
    const allowance = body.allowance?.allowance;
    if (!allowance) return null;
    const basic = (allowance.basic ?? allowance) as { spend_limit?: { denom: string; amount: string }[] };
    const limits = basic.spend_limit ?? [];
    if (limits.length === 0) return 'unlimited';
    return BigInt(limits.find((coin) => coin.denom === denom)?.amount ?? '0');
  }

  /** The fee of `gasLimit` at the node's minimum gas price, as a coin. */
  feeOf(gasLimit: bigint): { denom: string; amount: string } {
    const price = parseCosmosGasPrice(this.traits.minGasPrice);
    return { denom: price.denom, amount: cosmosFeeOf(gasLimit, price).toString() };
  }

  /** Why `rawTx` can never land (its sequence is spent and it is not on chain), or null. */
  private async conflictOf(rawTx: string, txHash: string): Promise<string | null> {
    const tx = TxRaw.decode(base64.decode(rawTx));
    const info = AuthInfo.decode(tx.authInfoBytes).signerInfos[0];
    if (!info) return null;
    const signer = signerOf(tx.bodyBytes);
    if (!signer) return null;
    const account = await this.account(signer);
    if (!account || BigInt(account.sequence ?? '0') <= info.sequence) return null;
    if ((await this.progress(txHash)).kind !== 'unknown') return null;
    return `sequence ${info.sequence} of ${signer} on ${this.chain.id} was used by another transaction: ${txHash} can never land`;
  }

  private async account(address: string): Promise<RestAccount | null> {
    try {
      const body = await this.rest<{ account?: RestAccount }>(
        `/cosmos/auth/v1beta1/accounts/${encodeURIComponent(address)}`,
      );
      return body.account ?? null;
    } catch (error) {
      if (error instanceof CosmosRestError && error.status === 404) return null;
      throw error;
    }
  }

  /** The chain's simulation of the payload's transaction, unsigned (the SDK skips signatures when simulating). */
  private async simulate(
    payload: CosmosSignDirectPayload,
  ): Promise<{ kind: 'ok'; gasUsed: bigint } | { kind: 'fails'; reason: string }> {
    const tx = TxRaw.encode({
      bodyBytes: base64.decode(payload.signDoc.bodyBytes),
      authInfoBytes: base64.decode(payload.signDoc.authInfoBytes),
      signatures: [new Uint8Array()],
    }).finish();
    try {
      const body = await this.rest<{ gas_info?: { gas_used?: string } }>('/cosmos/tx/v1beta1/simulate', {
        tx_bytes: base64.encode(tx),
      });
      return { kind: 'ok', gasUsed: BigInt(body.gas_info?.gas_used ?? '0') };
    } catch (error) {
      if (error instanceof CosmosRestError && error.status !== null && error.status < 500)
        return { kind: 'fails', reason: error.message };
      throw error;
    }
  }

  private async rest<T>(path: string, post?: Record<string, unknown>): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.traits.restUrl}${path}`, {
        method: post ? 'POST' : 'GET',
        headers: post ? { 'content-type': 'application/json' } : {},
        ...(post ? { body: JSON.stringify(post) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new CosmosRestError(null, `${this.chain.id} REST ${path}: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // not JSON: the text as it is
      }
      throw new CosmosRestError(response.status, message);
    }
    return JSON.parse(text) as T;
  }
}

/** The signer of a body's first message: every message this family issues has it in field 1 (sender, from_address). */
function signerOf(bodyBytes: Uint8Array): string | null {
  const first = TxBody.decode(bodyBytes).messages[0];
  if (!first || first.value[0] !== 0x0a) return null;
  const length = first.value[1];
  if (length >= 0x80) return null;
  return new TextDecoder().decode(first.value.subarray(2, 2 + length));
}
