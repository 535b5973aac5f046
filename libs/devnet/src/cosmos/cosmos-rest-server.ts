import { IncomingMessage, ServerResponse } from 'node:http';
import { LocalHttpServer } from '../local-http-server';
import { CosmosChain, TxAlreadyKnownError } from './cosmos-chain';
import { accountJson, txResponseJson } from './cosmos-json';
import { allowanceJson } from './cosmos-feegrant';
import { coinsJson } from './cosmos-messages';
import { forwardingAccount, forwardingStats } from './cosmos-forwarding';
import { MSG_REGISTER_ACCOUNT_TYPE_URL, nobleForwardingAddress } from '@swapgw/chains/families';
import type { IbcRelayer } from './cosmos-ibc';
import { allPools, MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL, poolJson, routeSwap } from './cosmos-osmosis';
import {
  checkQueryAddress,
  CosmosQueryError,
  GRPC_STATUS,
  queryAccount,
  queryAllowance,
  queryDenomTrace,
  querySimulate,
  traceHops,
} from './cosmos-queries';

/** gRPC status → HTTP status, as grpc-gateway's HTTPStatusFromCode. */
const HTTP_STATUS = { NotFound: 404, InvalidArgument: 400, Unknown: 500, Unimplemented: 501 } as const;

type Route = {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle: (match: string[], body: Record<string, unknown>, url: URL) => unknown;
};

/**
 * The SDK's REST API (the gRPC-gateway on port 1317) for one chain: accounts, balances, feegrant
 * allowances, broadcast (SYNC), tx by hash and simulate; errors as the gateway writes them,
 * `{"code": <gRPC status>, "message": ..., "details": []}`. With the devnet's relayer, a devnet-only
 * control of it (never used by production code; what an operator does stopping Hermes):
 *   GET  /devnet/ibc/relayer              → {"running": b}
 *   POST /devnet/ibc/relayer              {"running": b} → {"running": b}: stopped, packets wait
 *                                         (and time out once the destination's clock passes their
 *                                         timeout); started again, it relays what waits.
 */
export class CosmosRestServer {
  private readonly http = new LocalHttpServer((req, res) => this.serve(req, res));
  private readonly routes: Route[];

  constructor(
    private readonly chain: CosmosChain,
    relayer?: IbcRelayer,
  ) {
    this.routes = [
      ...(relayer ? relayerControl(relayer) : []),
      {
        method: 'GET',
        pattern: /^\/cosmos\/auth\/v1beta1\/accounts\/([^/]+)$/,
        handle: ([address]) => ({ account: accountJson(queryAccount(chain, address)) }),
      },
      {
        method: 'GET',
        pattern: /^\/cosmos\/bank\/v1beta1\/balances\/([^/]+)$/,
        handle: ([address]) => {
          checkQueryAddress(chain, address);
          const balances = coinsJson(chain.queryState.allBalances(address));
          return { balances, pagination: { next_key: null, total: String(balances.length) } };
        },
      },
      {
        method: 'GET',
        pattern: /^\/cosmos\/bank\/v1beta1\/balances\/([^/]+)\/by_denom$/,
        handle: ([address], _body, url) => {
          checkQueryAddress(chain, address);
          const denom = url.searchParams.get('denom') ?? '';
          return { balance: { denom, amount: chain.queryState.balance(address, denom).toString() } };
        },
      },
      {
        method: 'GET',
        pattern: /^\/cosmos\/feegrant\/v1beta1\/allowance\/([^/]+)\/([^/]+)$/,
        handle: ([granter, grantee]) => ({
          allowance: { granter, grantee, allowance: allowanceJson(queryAllowance(chain, granter, grantee)) },
        }),
      },
      {
        // ibc-go v10 (the hash, or ibc/<hash> as one segment or two).
        method: 'GET',
        pattern: /^\/ibc\/apps\/transfer\/v1\/denoms\/((?:ibc\/)?[^/]+)$/,
        handle: ([hash]) => {
          const trace = queryDenomTrace(chain, hash);
          const trace_ = traceHops(trace).map((h) => ({ port_id: h.portId, channel_id: h.channelId }));
          return { denom: { base: trace.baseDenom, trace: trace_ } };
        },
      },
      {
        // ibc-go v8 and before (what most explorers of today's Osmosis read).
        method: 'GET',
        pattern: /^\/ibc\/apps\/transfer\/v1\/denom_traces\/((?:ibc\/)?[^/]+)$/,
        handle: ([hash]) => {
          const trace = queryDenomTrace(chain, hash);
          return { denom_trace: { path: trace.path, base_denom: trace.baseDenom } };
        },
      },
      { method: 'POST', pattern: /^\/cosmos\/tx\/v1beta1\/txs$/, handle: (_m, body) => this.broadcast(body) },
      {
        method: 'GET',
        pattern: /^\/cosmos\/tx\/v1beta1\/txs\/([0-9A-Fa-f]{64})$/,
        handle: ([hash]) => {
          const tx = chain.includedTx(hash);
          if (!tx) throw new CosmosQueryError('NotFound', `tx not found: ${hash}`);
          const response = txResponseJson(tx.hash, tx.result, tx);
          return { tx: response.tx, tx_response: response };
        },
      },
      {
        method: 'POST',
        pattern: /^\/cosmos\/tx\/v1beta1\/simulate$/,
        handle: (_m, body) => {
          const result = querySimulate(chain, base64Field(body.tx_bytes, 'tx_bytes'));
          return {
            gas_info: { gas_wanted: result.gasWanted.toString(), gas_used: result.gasUsed.toString() },
            result: {
              data: '',
              log: result.log,
              events: result.events.map((e) => ({
                type: e.type,
                attributes: e.attributes.map((a) => ({ ...a, index: true })),
              })),
              msg_responses: [],
            },
          };
        },
      },
      ...this.osmosisRoutes(),
      ...this.forwardingRoutes(),
    ];
  }

  /**
   * x/forwarding's queries, on the chain that runs it: `address/{channel}/{recipient}/{fallback}`
   * (the fallback segment may be empty; on the devnet `?memo=` too) → `{address, exists}`, and
   * `stats/{channel}`.
   */
  private forwardingRoutes(): Route[] {
    const chain = this.chain;
    if (!chain.registry.has(MSG_REGISTER_ACCOUNT_TYPE_URL)) return [];
    return [
      {
        method: 'GET',
        pattern: /^\/noble\/forwarding\/v1\/address\/([^/]+)\/([^/]+)\/?([^/]*)$/,
        handle: ([channel, recipient, fallback], _body, url) => {
          const target = {
            channel: decodeURIComponent(channel),
            recipient: decodeURIComponent(recipient),
            fallback: decodeURIComponent(fallback),
            memo: url.searchParams.get('memo') ?? '',
          };
          const address = nobleForwardingAddress(chain.spec.bech32Prefix, target);
          return { address, exists: forwardingAccount(chain.queryState, address) !== undefined };
        },
      },
      {
        method: 'GET',
        pattern: /^\/noble\/forwarding\/v1\/stats\/([^/]+)$/,
        handle: ([channel]) => {
          const stats = forwardingStats(chain.queryState, channel);
          return {
            num_of_accounts: stats.numOfAccounts,
            num_of_forwards: stats.numOfForwards,
            total_forwarded: coinsJson(
              Object.entries(stats.totalForwarded).map(([denom, amount]) => ({ denom, amount })),
            ),
          };
        },
      },
    ];
  }

  /** Osmosis's poolmanager queries, on the chain that runs its swaps. */
  private osmosisRoutes(): Route[] {
    const chain = this.chain;
    if (!chain.registry.has(MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL)) return [];
    const pools = () => allPools(chain.queryState).map((p) => poolJson(chain.queryState, p));
    return [
      {
        method: 'GET',
        pattern: /^\/osmosis\/poolmanager\/v1beta1\/all-pools$/,
        handle: () => ({ pools: pools() }),
      },
      {
        method: 'GET',
        pattern: /^\/osmosis\/gamm\/v1beta1\/pools$/,
        handle: () => ({ pools: pools(), pagination: { next_key: null, total: String(pools().length) } }),
      },
      {
        // The gateway's forms: `routes.pool_id=…` (nested fields) and, with_primitive_types, `routes_pool_id=…`.
        method: 'GET',
        pattern:
          /^\/osmosis\/poolmanager\/v1beta1\/(\d+)\/estimate\/swap_exact_amount_in(?:_with_primitive_types)?$/,
        handle: (_match, _body, url) => {
          const params = url.searchParams;
          const ids = [...params.getAll('routes_pool_id'), ...params.getAll('routes.pool_id')];
          const denoms = [
            ...params.getAll('routes_token_out_denom'),
            ...params.getAll('routes.token_out_denom'),
          ];
          const tokenIn = /^([0-9]+)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/.exec(params.get('token_in') ?? '');
          if (
            !tokenIn ||
            ids.length === 0 ||
            ids.length !== denoms.length ||
            !ids.every((id) => /^\d+$/.test(id))
          ) {
            throw new CosmosQueryError('InvalidArgument', 'invalid token_in or routes');
          }
          const routes = ids.map((id, i) => ({ poolId: BigInt(id), tokenOutDenom: denoms[i] }));
          try {
            const { out } = routeSwap(
              chain.queryState.branch(),
              undefined,
              { denom: tokenIn[2], amount: BigInt(tokenIn[1]) },
              routes,
            );
            return { token_out_amount: out.toString() };
          } catch (error) {
            throw new CosmosQueryError('InvalidArgument', (error as Error).message);
          }
        },
      },
    ];
  }

  listen(port: number, host: string): Promise<number> {
    return this.http.listen(port, host);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private broadcast(body: Record<string, unknown>): unknown {
    const mode = body.mode ?? 'BROADCAST_MODE_SYNC';
    if (mode !== 'BROADCAST_MODE_SYNC' && mode !== 'BROADCAST_MODE_ASYNC') {
      throw new CosmosQueryError('InvalidArgument', `unsupported broadcast mode ${String(mode)}`);
    }
    const raw = base64Field(body.tx_bytes, 'tx_bytes');
    try {
      const result = this.chain.checkTx(raw);
      return { tx_response: txResponseJson(result.hash, { ...result, events: [] }) };
    } catch (error) {
      if (error instanceof TxAlreadyKnownError) {
        // What the SDK's BroadcastTx answers for a tx already in the mempool cache: code 19.
        return {
          tx_response: {
            ...txResponseJson('', {
              code: 19,
              codespace: 'sdk',
              log: 'tx already in mempool',
              data: new Uint8Array(),
              gasWanted: 0n,
              gasUsed: 0n,
              events: [],
            }),
          },
        };
      }
      throw error;
    }
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let status = 200;
    let answer: unknown;
    try {
      const route = this.routes
        .filter((r) => r.method === req.method)
        .map((r) => ({ handle: r.handle, match: r.pattern.exec(url.pathname) }))
        .find((r) => r.match !== null);
      if (!route?.match) {
        status = 501;
        answer = { code: GRPC_STATUS.Unimplemented, message: 'Not Implemented', details: [] };
      } else {
        const body = req.method === 'POST' ? await readJson(req) : {};
        answer = route.handle(route.match.slice(1).map(decodeURIComponent), body, url);
      }
    } catch (error) {
      const refused =
        error instanceof CosmosQueryError
          ? error
          : new CosmosQueryError('InvalidArgument', (error as Error).message);
      status = HTTP_STATUS[refused.grpcCode];
      answer = { code: GRPC_STATUS[refused.grpcCode], message: refused.description, details: [] };
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  }
}

function relayerControl(relayer: IbcRelayer): Route[] {
  const state = () => ({ running: relayer.isRunning });
  return [
    { method: 'GET', pattern: /^\/devnet\/ibc\/relayer$/, handle: state },
    {
      method: 'POST',
      pattern: /^\/devnet\/ibc\/relayer$/,
      handle: (_m, body) => {
        if (typeof body.running !== 'boolean') throw new Error('running must be true or false');
        if (body.running) relayer.start();
        else relayer.stop();
        return state();
      },
    },
  ];
}

function base64Field(value: unknown, field: string): Uint8Array {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value === '') {
    throw new CosmosQueryError('InvalidArgument', `invalid ${field}: expected base64 transaction bytes`);
  }
  return Uint8Array.from(Buffer.from(value, 'base64'));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('body must be a JSON object');
  return parsed as Record<string, unknown>;
}
