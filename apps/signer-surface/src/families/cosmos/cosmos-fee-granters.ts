import { Injectable, Logger } from '@nestjs/common';
import {
  cosmosTxHash,
  granterAddressOf,
  signFeeGrantTx,
  type CosmosSigningChainClient,
} from '@swapgw/chains/families';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { SignerChains } from '../../chains/signer-chains';
import { cosmosGranterKeyBytes } from './cosmos-fee-granter-keys';
import { CosmosFeeGranterSettings } from './cosmos-fee-granter-settings';

/** Gas of a grant (and a revoke with it) paid by the granter itself. */
const GRANT_GAS_LIMIT = 200_000n;
/** How long a grant's transaction is waited for before the step's issue gives up (503). */
const GRANT_LANDS_WITHIN_MS = 30_000;

/**
 * The service's fee granter of each Cosmos chain (COSMOS_FEE_GRANTER_KEYS: the first key of a chain):
 * its address, named as `fee.granter` by every Cosmos step, and the x/feegrant allowance it keeps
 * with each wallet: before a step is issued, a wallet whose allowance cannot pay the step's fee is
 * granted (or topped up to, by a revoke and a grant in one transaction) COSMOS_FEE_GRANT_STEPS times
 * that fee, signed with the granter's key and awaited in its block. One grant at a time per chain
 * (the granter's sequence). No grant: SPONSORSHIP_UNAVAILABLE (503), the service's problem.
 */
@Injectable()
export class CosmosFeeGranters {
  private readonly logger = new Logger(CosmosFeeGranters.name);
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly settings: CosmosFeeGranterSettings,
    private readonly chains: SignerChains,
  ) {}

  /** The granter's address on `chain`; null when the service has no granter there. */
  granterOf(chain: string): string | null {
    const key = this.keyOf(chain);
    const prefix = this.chains.find(chain)?.cosmos?.bech32Prefix;
    if (!key || !prefix) return null;
    try {
      return granterAddressOf(prefix, key);
    } finally {
      key.fill(0);
    }
  }

  /** Makes sure `granter`'s allowance to `grantee` on `chain` can pay `fee` (of `denom`), granting it when not. */
  async ensureAllowance(
    client: CosmosSigningChainClient,
    granter: string,
    grantee: string,
    fee: { denom: string; amount: bigint },
  ): Promise<void> {
    const chain = client.chain.id;
    const previous = this.queues.get(chain) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => this.grantWhenShort(client, granter, grantee, fee));
    this.queues.set(chain, next);
    await next;
  }

  private async grantWhenShort(
    client: CosmosSigningChainClient,
    granter: string,
    grantee: string,
    fee: { denom: string; amount: bigint },
  ): Promise<void> {
    const chain = client.chain.id;
    const left = await client.allowanceLeft(granter, grantee, fee.denom);
    if (left === 'unlimited' || (left !== null && left >= fee.amount)) return;
    const account = await client.accountOf(granter);
    const cosmos = this.chains.find(chain)?.cosmos;
    const key = this.keyOf(chain);
    if (!account || !cosmos || !key) throw unavailable(chain, `the fee granter ${granter} has no account`);
    const grantFee = client.feeOf(GRANT_GAS_LIMIT);
    let rawTx: string;
    try {
      rawTx = signFeeGrantTx({
        account: { chainId: cosmos.chainId, prefix: cosmos.bech32Prefix, ...account },
        privateKey: key,
        grantee,
        spendLimit: [{ denom: fee.denom, amount: (fee.amount * this.settings.grantSteps).toString() }],
        replace: left !== null,
        gasLimit: GRANT_GAS_LIMIT,
        fee: [grantFee],
      });
    } finally {
      key.fill(0);
    }
    const hash = cosmosTxHash(Buffer.from(rawTx, 'base64'));
    const sent = await client.broadcast(rawTx, hash);
    if (sent.kind === 'rejected' || sent.kind === 'unreachable')
      throw unavailable(chain, `the fee grant to ${grantee} was not taken: ${sent.message}`);
    const deadline = Date.now() + GRANT_LANDS_WITHIN_MS;
    for (;;) {
      const progress = await client.progress(hash, 1);
      if (progress.kind === 'confirmed') break;
      if (progress.kind === 'failed')
        throw unavailable(chain, `the fee grant to ${grantee} failed: ${progress.reason}`);
      if (Date.now() > deadline)
        throw unavailable(chain, `the fee grant ${hash} to ${grantee} did not land in time`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    this.logger.log({ msg: 'fee grant', chain, granter, grantee, txHash: hash, fee: grantFee });
  }

  private keyOf(chain: string): Uint8Array | null {
    return cosmosGranterKeyBytes(this.settings.keys.keysOf(chain)[0]);
  }
}

function unavailable(chain: string, reason: string): CodedError {
  return new CodedError(
    ErrorCodes.SPONSORSHIP_UNAVAILABLE,
    `The Cosmos fee granter of ${chain} cannot pay: ${reason}`,
    {
      chain,
    },
  );
}
