import type { Any } from 'cosmjs-types/google/protobuf/any';
import { BasicAllowance, PeriodicAllowance } from 'cosmjs-types/cosmos/feegrant/v1beta1/feegrant';
import {
  MsgGrantAllowance,
  MsgGrantAllowanceResponse,
  MsgRevokeAllowance,
  MsgRevokeAllowanceResponse,
} from 'cosmjs-types/cosmos/feegrant/v1beta1/tx';
import type { Timestamp } from 'cosmjs-types/google/protobuf/timestamp';
import { CosmosTxError } from './cosmos-errors';
import { checkAddress, coinsJson, CosmosMessageHandler, parseCoins, messageEvent } from './cosmos-messages';
import { Coin, CosmosState, FeeAllowance } from './cosmos-state';

export const BASIC_ALLOWANCE_TYPE_URL = '/cosmos.feegrant.v1beta1.BasicAllowance';
export const PERIODIC_ALLOWANCE_TYPE_URL = '/cosmos.feegrant.v1beta1.PeriodicAllowance';
/** Gas of granting and revoking an allowance beyond the ante handler's. */
export const FEEGRANT_GAS = { grant: 25_000, revoke: 15_000 } as const;

function dateOf(timestamp: Timestamp | undefined): Date | undefined {
  if (!timestamp) return undefined;
  return new Date(Number(timestamp.seconds) * 1000 + Math.floor(timestamp.nanos / 1e6));
}

/** Decodes a granted allowance (BasicAllowance or PeriodicAllowance); anything else is refused. */
export function decodeAllowance(any: Any | undefined): FeeAllowance {
  if (any?.typeUrl === BASIC_ALLOWANCE_TYPE_URL) {
    const basic = BasicAllowance.decode(any.value);
    return {
      kind: 'basic',
      spendLimit: parseCoins(basic.spendLimit, true),
      expiration: dateOf(basic.expiration),
    };
  }
  if (any?.typeUrl === PERIODIC_ALLOWANCE_TYPE_URL) {
    const periodic = PeriodicAllowance.decode(any.value);
    const periodSeconds = periodic.period.seconds;
    if (periodSeconds <= 0n) throw new CosmosTxError('invalidRequest', 'period must be positive');
    return {
      kind: 'periodic',
      basic: {
        spendLimit: parseCoins(periodic.basic.spendLimit, true),
        expiration: dateOf(periodic.basic.expiration),
      },
      periodSeconds,
      periodSpendLimit: parseCoins(periodic.periodSpendLimit, false),
      periodCanSpend: parseCoins(periodic.periodCanSpend, true),
      periodReset: dateOf(periodic.periodReset) ?? new Date(0),
    };
  }
  throw new CosmosTxError('invalidRequest', `unsupported allowance type ${any?.typeUrl ?? '(none)'}`);
}

/** sdk.Coins SafeSub: the difference, or undefined when any denom would go negative. */
function subtractCoins(from: Coin[], take: Coin[]): Coin[] | undefined {
  const left = new Map(from.map((c) => [c.denom, c.amount]));
  for (const coin of take) {
    const remaining = (left.get(coin.denom) ?? 0n) - coin.amount;
    if (remaining < 0n) return undefined;
    left.set(coin.denom, remaining);
  }
  return [...left].filter(([, amount]) => amount > 0n).map(([denom, amount]) => ({ denom, amount }));
}

function minCoins(a: Coin[], b: Coin[]): Coin[] {
  return a
    .map((coin) => {
      const other = b.find((c) => c.denom === coin.denom);
      return { denom: coin.denom, amount: other && other.amount < coin.amount ? other.amount : coin.amount };
    })
    .filter((coin) => b.some((c) => c.denom === coin.denom));
}

/**
 * FeeAllowanceI.Accept: takes `fee` from the allowance at `blockTime`. Returns the allowance left
 * (undefined when used up: the SDK then deletes the grant) or throws the SDK's refusal.
 */
export function acceptFee(allowance: FeeAllowance, fee: Coin[], blockTime: Date): FeeAllowance | undefined {
  const basic = allowance.kind === 'basic' ? allowance : allowance.basic;
  if (basic.expiration && basic.expiration.getTime() < blockTime.getTime()) {
    throw new CosmosTxError('feeLimitExpired', 'absolute limit');
  }
  let periodic = allowance.kind === 'periodic' ? { ...allowance } : undefined;
  if (periodic) {
    if (blockTime.getTime() >= periodic.periodReset.getTime()) {
      periodic.periodCanSpend =
        basic.spendLimit.length > 0
          ? minCoins(periodic.periodSpendLimit, basic.spendLimit)
          : periodic.periodSpendLimit;
      const periodMs = Number(periodic.periodSeconds) * 1000;
      let reset = periodic.periodReset.getTime() + periodMs;
      if (blockTime.getTime() > reset) reset = blockTime.getTime() + periodMs;
      periodic.periodReset = new Date(reset);
    }
    const canSpend = subtractCoins(periodic.periodCanSpend, fee);
    if (!canSpend) throw new CosmosTxError('feeLimitExceeded', 'period limit');
    periodic = { ...periodic, periodCanSpend: canSpend };
  }
  let spendLimit = basic.spendLimit;
  if (spendLimit.length > 0) {
    const left = subtractCoins(spendLimit, fee);
    if (!left) throw new CosmosTxError('feeLimitExceeded', periodic ? 'absolute limit' : 'basic allowance');
    if (left.length === 0) return undefined;
    spendLimit = left;
  }
  const nextBasic = { spendLimit, expiration: basic.expiration };
  return periodic ? { ...periodic, basic: nextBasic } : { kind: 'basic', ...nextBasic };
}

/** x/feegrant UseGrantedFees: the grant pays `fee` for `grantee` or the tx is refused. */
export function useGrantedFees(
  state: CosmosState,
  granter: string,
  grantee: string,
  fee: Coin[],
  blockTime: Date,
): void {
  const context = `${granter} does not allow to pay fees for ${grantee}`;
  const allowance = state.allowance(granter, grantee);
  if (!allowance) throw new CosmosTxError('notFound', `${context}: fee-grant not found`);
  try {
    state.setAllowance(granter, grantee, acceptFee(allowance, fee, blockTime));
  } catch (error) {
    if (error instanceof CosmosTxError && error.error === 'feeLimitExpired')
      state.setAllowance(granter, grantee, undefined);
    throw error instanceof CosmosTxError ? error.wrap(context) : error;
  }
}

function timestampJson(date: Date | undefined): string | null {
  return date ? date.toISOString().replace('.000Z', 'Z') : null;
}

/** The allowance as the REST API and amino JSON show it. */
export function allowanceJson(allowance: FeeAllowance): Record<string, unknown> {
  const basic = allowance.kind === 'basic' ? allowance : allowance.basic;
  const basicJson = { spend_limit: coinsJson(basic.spendLimit), expiration: timestampJson(basic.expiration) };
  if (allowance.kind === 'basic') return { '@type': BASIC_ALLOWANCE_TYPE_URL, ...basicJson };
  return {
    '@type': PERIODIC_ALLOWANCE_TYPE_URL,
    basic: basicJson,
    period: `${allowance.periodSeconds}s`,
    period_spend_limit: coinsJson(allowance.periodSpendLimit),
    period_can_spend: coinsJson(allowance.periodCanSpend),
    period_reset: timestampJson(allowance.periodReset),
  };
}

/** Amino JSON of a BasicAllowance (amino omits empty fields); a PeriodicAllowance is not signable in amino here. */
function allowanceAmino(any: Any | undefined): Record<string, unknown> {
  const allowance = decodeAllowance(any);
  if (allowance.kind !== 'basic') {
    throw new CosmosTxError('invalidRequest', 'PeriodicAllowance is only accepted in SIGN_MODE_DIRECT');
  }
  const value: Record<string, unknown> = {};
  if (allowance.spendLimit.length > 0) value.spend_limit = coinsJson(allowance.spendLimit);
  if (allowance.expiration) value.expiration = timestampJson(allowance.expiration);
  return { type: 'cosmos-sdk/BasicAllowance', value };
}

/** x/feegrant MsgGrantAllowance: granter pays fees of grantee's txs within the allowance. */
export const msgGrantAllowanceHandler: CosmosMessageHandler<MsgGrantAllowance> = {
  typeUrl: '/cosmos.feegrant.v1beta1.MsgGrantAllowance',
  aminoType: 'cosmos-sdk/MsgGrantAllowance',
  decode: (bytes) => MsgGrantAllowance.decode(bytes),
  signers: (msg) => [msg.granter],
  validate(msg, spec) {
    checkAddress(spec, msg.granter, 'granter');
    checkAddress(spec, msg.grantee, 'grantee');
    if (msg.granter === msg.grantee) {
      throw new CosmosTxError('invalidAddress', 'cannot self-grant fee authorization');
    }
    decodeAllowance(msg.allowance);
  },
  gas: () => FEEGRANT_GAS.grant,
  execute(msg, ctx) {
    if (ctx.state.allowance(msg.granter, msg.grantee)) {
      throw new CosmosTxError('invalidRequest', 'fee allowance already exists');
    }
    let allowance = decodeAllowance(msg.allowance);
    const basic = allowance.kind === 'basic' ? allowance : allowance.basic;
    if (basic.expiration && basic.expiration.getTime() < ctx.blockTime.getTime()) {
      throw new CosmosTxError('invalidRequest', 'expiration is before current block time');
    }
    if (allowance.kind === 'periodic' && allowance.periodReset.getTime() === 0) {
      allowance = {
        ...allowance,
        periodReset: new Date(ctx.blockTime.getTime() + Number(allowance.periodSeconds) * 1000),
        periodCanSpend: allowance.periodCanSpend.length
          ? allowance.periodCanSpend
          : allowance.periodSpendLimit,
      };
    }
    ctx.state.ensureAccount(msg.grantee);
    ctx.state.setAllowance(msg.granter, msg.grantee, allowance);
    ctx.events.push(messageEvent('/cosmos.feegrant.v1beta1.MsgGrantAllowance', msg.granter, 'feegrant'), {
      type: 'set_feegrant',
      attributes: [
        { key: 'granter', value: msg.granter },
        { key: 'grantee', value: msg.grantee },
      ],
    });
    return {
      typeUrl: '/cosmos.feegrant.v1beta1.MsgGrantAllowanceResponse',
      value: MsgGrantAllowanceResponse.encode({}).finish(),
    };
  },
  toJson: (msg) => ({
    granter: msg.granter,
    grantee: msg.grantee,
    allowance: allowanceJson(decodeAllowance(msg.allowance)),
  }),
  toAmino: (msg) => ({
    granter: msg.granter,
    grantee: msg.grantee,
    allowance: allowanceAmino(msg.allowance),
  }),
};

/** x/feegrant MsgRevokeAllowance. */
export const msgRevokeAllowanceHandler: CosmosMessageHandler<MsgRevokeAllowance> = {
  typeUrl: '/cosmos.feegrant.v1beta1.MsgRevokeAllowance',
  aminoType: 'cosmos-sdk/MsgRevokeAllowance',
  decode: (bytes) => MsgRevokeAllowance.decode(bytes),
  signers: (msg) => [msg.granter],
  validate(msg, spec) {
    checkAddress(spec, msg.granter, 'granter');
    checkAddress(spec, msg.grantee, 'grantee');
  },
  gas: () => FEEGRANT_GAS.revoke,
  execute(msg, ctx) {
    if (!ctx.state.allowance(msg.granter, msg.grantee)) {
      throw new CosmosTxError('notFound', 'fee-grant not found');
    }
    ctx.state.setAllowance(msg.granter, msg.grantee, undefined);
    ctx.events.push({
      type: 'revoke_feegrant',
      attributes: [
        { key: 'granter', value: msg.granter },
        { key: 'grantee', value: msg.grantee },
      ],
    });
    return {
      typeUrl: '/cosmos.feegrant.v1beta1.MsgRevokeAllowanceResponse',
      value: MsgRevokeAllowanceResponse.encode({}).finish(),
    };
  },
  toJson: (msg) => ({ granter: msg.granter, grantee: msg.grantee }),
  toAmino: (msg) => ({ granter: msg.granter, grantee: msg.grantee }),
};
