import { BaseAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import { QueryAccountRequest, QueryAccountResponse } from 'cosmjs-types/cosmos/auth/v1beta1/query';
import {
  QueryAllBalancesRequest,
  QueryAllBalancesResponse,
  QueryBalanceRequest,
  QueryBalanceResponse,
} from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { BasicAllowance, PeriodicAllowance } from 'cosmjs-types/cosmos/feegrant/v1beta1/feegrant';
import { QueryAllowanceRequest, QueryAllowanceResponse } from 'cosmjs-types/cosmos/feegrant/v1beta1/query';
import { SimulateRequest, SimulateResponse } from 'cosmjs-types/cosmos/tx/v1beta1/service';
import { AuthInfo, Tx, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { QueryDenomRequest, QueryDenomResponse } from 'cosmjs-types/ibc/applications/transfer/v1/query';
import type { CosmosChain, TxResult } from './cosmos-chain';
import { CosmosTxError } from './cosmos-errors';
import { BASIC_ALLOWANCE_TYPE_URL, PERIODIC_ALLOWANCE_TYPE_URL } from './cosmos-feegrant';
import { DenomTrace, denomTrace } from './cosmos-ibc';
import { addressBytes } from './cosmos-keys';
import type { CosmosAccount, FeeAllowance } from './cosmos-state';
import { SECP256K1_PUBKEY_TYPE_URL } from './cosmos-tx';

/**
 * A query refused as the SDK's gRPC services refuse it: `grpcCode` is the gRPC status (what the REST
 * gateway answers, its HTTP status derived from it), `error` the SDK code an ABCI query carries.
 */
export class CosmosQueryError extends Error {
  constructor(
    readonly grpcCode: 'NotFound' | 'InvalidArgument' | 'Unknown' | 'Unimplemented',
    readonly description: string,
    readonly sdkError: CosmosTxError = new CosmosTxError('invalidRequest'),
    /** A registered SDK error returned as it is (its own text), not a status.Errorf. */
    registered = false,
  ) {
    super(registered ? description : `rpc error: code = ${grpcCode} desc = ${description}`);
  }
}

export const GRPC_STATUS = { NotFound: 5, InvalidArgument: 3, Unknown: 2, Unimplemented: 12 } as const;

export function checkQueryAddress(chain: CosmosChain, address: string): void {
  if (!addressBytes(chain.spec.bech32Prefix, address)) {
    const description = `invalid address: decoding bech32 failed: ${address}`;
    throw new CosmosQueryError('InvalidArgument', description, new CosmosTxError('invalidRequest'));
  }
}

export function queryAccount(chain: CosmosChain, address: string): CosmosAccount {
  checkQueryAddress(chain, address);
  const account = chain.queryState.account(address);
  if (!account) {
    const description = `account ${address} not found`;
    throw new CosmosQueryError('NotFound', description, new CosmosTxError('keyNotFound'));
  }
  return account;
}

export function queryAllowance(chain: CosmosChain, granter: string, grantee: string): FeeAllowance {
  checkQueryAddress(chain, granter);
  checkQueryAddress(chain, grantee);
  const allowance = chain.queryState.allowance(granter, grantee);
  if (!allowance) {
    // The keeper's sdkerrors.ErrNotFound, mapped by gRPC status to ErrKeyNotFound on ABCI.
    const description = 'fee-grant not found: not found';
    throw new CosmosQueryError('NotFound', description, new CosmosTxError('keyNotFound'), true);
  }
  return allowance;
}

/**
 * ibc-go's transfer Query/Denom (v10; Query/DenomTrace before v9): the trace of voucher `ibc/<hash>`
 * (the hash alone or with its `ibc/` prefix).
 */
export function queryDenomTrace(chain: CosmosChain, hash: string): DenomTrace {
  const bare = hash.replace(/^ibc\//, '');
  if (!/^[0-9A-Fa-f]{64}$/.test(bare)) {
    throw new CosmosQueryError(
      'InvalidArgument',
      `invalid denom trace hash: ${bare}: invalid denomination for cross-chain transfer`,
    );
  }
  const trace = denomTrace(chain.queryState, bare);
  if (!trace) {
    throw new CosmosQueryError(
      'NotFound',
      `${bare}: denomination trace not found`,
      new CosmosTxError('keyNotFound'),
    );
  }
  return trace;
}

/** A trace's hops as ibc-go v10's Denom lists them (port/channel pairs, outermost first). */
export function traceHops(trace: DenomTrace): { portId: string; channelId: string }[] {
  const parts = trace.path === '' ? [] : trace.path.split('/');
  const hops: { portId: string; channelId: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) hops.push({ portId: parts[i], channelId: parts[i + 1] });
  return hops;
}

/** The Simulate service over tx bytes (or a Tx): refusals carry the SDK's gas figures as it does. */
export function querySimulate(chain: CosmosChain, txBytes: Uint8Array): TxResult {
  const result = chain.simulate(txBytes);
  if (result.code !== 0) {
    const description = `${result.log} With gas wanted: '${result.gasWanted}' and gas used: '${result.gasUsed}' `;
    throw new CosmosQueryError('Unknown', description, new CosmosTxError('unknownRequest'));
  }
  return result;
}

export function accountAny(account: CosmosAccount): Any {
  return {
    typeUrl: '/cosmos.auth.v1beta1.BaseAccount',
    value: BaseAccount.encode({
      address: account.address,
      pubKey: account.pubKey
        ? { typeUrl: SECP256K1_PUBKEY_TYPE_URL, value: PubKey.encode({ key: account.pubKey }).finish() }
        : undefined,
      accountNumber: account.accountNumber,
      sequence: account.sequence,
    }).finish(),
  };
}

export function allowanceAny(allowance: FeeAllowance): Any {
  const timestamp = (date: Date) => ({
    seconds: BigInt(Math.floor(date.getTime() / 1000)),
    nanos: (date.getTime() % 1000) * 1e6,
  });
  const coins = (list: { denom: string; amount: bigint }[]) =>
    list.map((c) => ({ denom: c.denom, amount: c.amount.toString() }));
  const basic = allowance.kind === 'basic' ? allowance : allowance.basic;
  const basicProto = {
    spendLimit: coins(basic.spendLimit),
    expiration: basic.expiration && timestamp(basic.expiration),
  };
  if (allowance.kind === 'basic') {
    return { typeUrl: BASIC_ALLOWANCE_TYPE_URL, value: BasicAllowance.encode(basicProto).finish() };
  }
  return {
    typeUrl: PERIODIC_ALLOWANCE_TYPE_URL,
    value: PeriodicAllowance.encode({
      basic: basicProto,
      period: { seconds: allowance.periodSeconds, nanos: 0 },
      periodSpendLimit: coins(allowance.periodSpendLimit),
      periodCanSpend: coins(allowance.periodCanSpend),
      periodReset: timestamp(allowance.periodReset),
    }).finish(),
  };
}

type AbciQueryHandler = (chain: CosmosChain, data: Uint8Array) => Uint8Array;

/** The gRPC query services reachable through ABCI `abci_query`, by method path (what cosmjs calls). */
const ABCI_QUERIES: Record<string, AbciQueryHandler> = {
  '/cosmos.auth.v1beta1.Query/Account': (chain, data) => {
    const { address } = QueryAccountRequest.decode(data);
    return QueryAccountResponse.encode({ account: accountAny(queryAccount(chain, address)) }).finish();
  },
  '/cosmos.bank.v1beta1.Query/Balance': (chain, data) => {
    const { address, denom } = QueryBalanceRequest.decode(data);
    checkQueryAddress(chain, address);
    const amount = chain.queryState.balance(address, denom).toString();
    return QueryBalanceResponse.encode({ balance: { denom, amount } }).finish();
  },
  '/cosmos.bank.v1beta1.Query/AllBalances': (chain, data) => {
    const { address } = QueryAllBalancesRequest.decode(data);
    checkQueryAddress(chain, address);
    const balances = chain.queryState
      .allBalances(address)
      .map((c) => ({ denom: c.denom, amount: c.amount.toString() }));
    return QueryAllBalancesResponse.encode({
      balances,
      pagination: { nextKey: new Uint8Array(), total: BigInt(balances.length) },
    }).finish();
  },
  '/cosmos.feegrant.v1beta1.Query/Allowance': (chain, data) => {
    const { granter, grantee } = QueryAllowanceRequest.decode(data);
    const allowance = allowanceAny(queryAllowance(chain, granter, grantee));
    return QueryAllowanceResponse.encode({ allowance: { granter, grantee, allowance } }).finish();
  },
  '/ibc.applications.transfer.v1.Query/Denom': (chain, data) => {
    const trace = queryDenomTrace(chain, QueryDenomRequest.decode(data).hash);
    return QueryDenomResponse.encode({ denom: { base: trace.baseDenom, trace: traceHops(trace) } }).finish();
  },
  '/cosmos.tx.v1beta1.Service/Simulate': (chain, data) => {
    const request = SimulateRequest.decode(data);
    // The deprecated `tx` field still works on the SDK: re-encoded as the TxRaw it stands for.
    const txBytes = request.tx && request.txBytes.length === 0 ? txRawOf(request.tx) : request.txBytes;
    const result = querySimulate(chain, txBytes);
    const msgResponses = TxMsgData.decode(result.data).msgResponses;
    return SimulateResponse.encode({
      gasInfo: { gasWanted: result.gasWanted, gasUsed: result.gasUsed },
      result: {
        data: new Uint8Array(),
        log: result.log,
        events: result.events.map((e) => ({
          type: e.type,
          attributes: e.attributes.map((a) => ({ ...a, index: true })),
        })),
        msgResponses,
      },
    }).finish();
  },
};

function txRawOf(tx: Tx): Uint8Array {
  return TxRaw.encode({
    bodyBytes: TxBody.encode(tx.body ?? TxBody.fromPartial({})).finish(),
    authInfoBytes: AuthInfo.encode(tx.authInfo ?? AuthInfo.fromPartial({})).finish(),
    signatures: tx.signatures,
  }).finish();
}

export interface AbciQueryResult {
  code: number;
  codespace: string;
  log: string;
  value: Uint8Array;
}

/** ABCI Query: the SDK answers a failed gRPC query with the mapped SDK code and the status text. */
export function abciQuery(chain: CosmosChain, path: string, data: Uint8Array): AbciQueryResult {
  const handler = ABCI_QUERIES[path];
  if (!handler) {
    const error = new CosmosTxError('unknownRequest', `no custom querier found for route ${path}`);
    return { code: error.code, codespace: error.codespace, log: error.message, value: new Uint8Array() };
  }
  try {
    return { code: 0, codespace: '', log: '', value: handler(chain, data) };
  } catch (error) {
    const refused =
      error instanceof CosmosQueryError
        ? error.sdkError.wrap(error.message)
        : error instanceof CosmosTxError
          ? error
          : new CosmosTxError('txDecode', (error as Error).message);
    return {
      code: refused.code,
      codespace: refused.codespace,
      log: refused.message,
      value: new Uint8Array(),
    };
  }
}
