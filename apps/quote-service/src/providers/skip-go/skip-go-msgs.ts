import { COSMOS_MSG_TYPES, type CosmosMsgJson } from '@swapgw/chains/families';
import { SkipCosmosMsg, SkipGoApi, SkipMsgsAnswer, SkipRoute } from './skip-go-api';

/** What a Cosmos step of a Skip route is asked to sign: the route, the wallet's addresses, the signer. */
export interface SkipGoMsgsRequest {
  /** The route as /v2/fungible/route answered it (its operations go back to Skip unchanged). */
  route: SkipRoute;
  /** The wallet's address on each chain of `route.required_chain_addresses`, by Skip's chain id. */
  addresses: Readonly<Record<string, string>>;
  /** The route's slippage: Skip writes the swap's minimum output from it. */
  slippageBps: number;
  /** The chain (Skip's id, the descriptor's `cosmos.chainId`) and the address the step is signed on and by. */
  signer: { chainId: string; address: string };
  /** Seconds until the IBC packets time out (Skip's default when unset). */
  timeoutSeconds?: number;
}

/** The one transaction of a Skip route: its chain, its signer and its messages as libs/chains issues them. */
export interface SkipGoSignedMsgs {
  chainId: string;
  signerAddress: string;
  msgs: CosmosMsgJson[];
}

/**
 * Turns a Skip route into the Cosmos messages a step signs (POST /v2/fungible/msgs): each message
 * `{typeUrl: msg_type_url, value}`, `value` being Skip's snake_case JSON in the proto3 JSON
 * (camelCase) shape of libs/chains' cosmos-route-msgs (MsgTransfer: sourcePort, sourceChannel,
 * token, sender, receiver, timeoutHeight {revisionNumber, revisionHeight}, timeoutTimestamp, memo;
 * Osmosis MsgSwapExactAmountIn: sender, routes [{poolId, tokenOutDenom}], tokenIn,
 * tokenOutMinAmount), integers as decimal strings. Refused (an Error, the step cannot be built):
 * an answer of several transactions, a transaction for another chain or signer than asked, a
 * message signed by anyone else, or of a type the gateway's SignDoc builder does not issue.
 */
export class SkipGoMsgs {
  constructor(private readonly api: SkipGoApi) {}

  async msgsFor(request: SkipGoMsgsRequest, signal: AbortSignal): Promise<SkipGoSignedMsgs> {
    const { route } = request;
    const missing = route.required_chain_addresses.filter((chainId) => !request.addresses[chainId]);
    if (missing.length > 0)
      throw new Error(`Skip Go's route needs the wallet's address on ${missing.join(', ')}`);
    const answer = await this.api.msgs(
      {
        source_asset_denom: route.source_asset_denom,
        source_asset_chain_id: route.source_asset_chain_id,
        dest_asset_denom: route.dest_asset_denom,
        dest_asset_chain_id: route.dest_asset_chain_id,
        amount_in: route.amount_in,
        amount_out: route.amount_out,
        address_list: route.required_chain_addresses.map((chainId) => request.addresses[chainId]),
        operations: route.operations,
        slippage_tolerance_percent: (request.slippageBps / 100).toString(),
        ...(request.timeoutSeconds !== undefined
          ? { timeout_seconds: request.timeoutSeconds.toString() }
          : {}),
      },
      signal,
    );
    return skipSignedMsgs(answer, request.signer);
  }
}

/** The /msgs answer as the one transaction `signer` signs (see SkipGoMsgs). */
export function skipSignedMsgs(
  answer: SkipMsgsAnswer,
  signer: { chainId: string; address: string },
): SkipGoSignedMsgs {
  const txs = transactionsOf(answer);
  if (txs.length !== 1) throw new Error(`Skip Go's msgs are ${txs.length} transactions; a step signs one`);
  const [tx] = txs;
  if (tx.chainId !== signer.chainId)
    throw new Error(`Skip Go's msgs are for ${tx.chainId}, not ${signer.chainId}`);
  if (tx.signerAddress !== undefined && tx.signerAddress !== signer.address)
    throw new Error(`Skip Go's msgs are signed by ${tx.signerAddress}, not ${signer.address}`);
  const msgs = tx.msgs.map((msg, index) => {
    if (!COSMOS_MSG_TYPES.includes(msg.msg_type_url))
      throw new Error(`Skip Go's msg ${index} is a ${msg.msg_type_url}, which the gateway does not issue`);
    const value = camelCaseJson(parseJsonIntegersAsStrings(msg.msg));
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error(`Skip Go's msg ${index} is not a JSON object`);
    const json = normalised(msg.msg_type_url, value as Record<string, unknown>);
    const signedBy = json.sender ?? json.fromAddress;
    if (signedBy !== signer.address)
      throw new Error(`Skip Go's msg ${index} is signed by ${String(signedBy)}, not ${signer.address}`);
    return { typeUrl: msg.msg_type_url, value: json };
  });
  return { chainId: tx.chainId, signerAddress: signer.address, msgs };
}

interface SkipTransaction {
  chainId: string;
  signerAddress?: string;
  msgs: SkipCosmosMsg[];
}

/** The transactions of an answer: `txs` (cosmos_tx; another family's is refused) or the older `msgs`. */
function transactionsOf(answer: SkipMsgsAnswer): SkipTransaction[] {
  if (Array.isArray(answer.txs))
    return answer.txs.map((tx) => {
      if (!tx.cosmos_tx)
        throw new Error(`Skip Go's msgs hold a ${Object.keys(tx).join('/')} transaction, not a Cosmos one`);
      return {
        chainId: tx.cosmos_tx.chain_id,
        signerAddress: tx.cosmos_tx.signer_address,
        msgs: tx.cosmos_tx.msgs,
      };
    });
  // The older form: one multi_chain_msg per transaction.
  return (answer.msgs ?? []).map((msg) => {
    if (!msg.multi_chain_msg)
      throw new Error(`Skip Go's msgs hold a ${Object.keys(msg).join('/')} message, not a Cosmos one`);
    const { chain_id, msg: text, msg_type_url } = msg.multi_chain_msg;
    return { chainId: chain_id, msgs: [{ msg: text, msg_type_url }] };
  });
}

/** A MsgTransfer always has its timeout height (zero when Skip writes `{}`), as ibcSwapOnArrivalMsg. */
function normalised(typeUrl: string, json: Record<string, unknown>): Record<string, unknown> {
  if (typeUrl !== '/ibc.applications.transfer.v1.MsgTransfer') return json;
  const height = (json.timeoutHeight ?? {}) as Record<string, unknown>;
  return {
    ...json,
    timeoutHeight: {
      revisionNumber: String(height.revisionNumber ?? '0'),
      revisionHeight: String(height.revisionHeight ?? '0'),
    },
    ...(json.timeoutTimestamp !== undefined ? { timeoutTimestamp: String(json.timeoutTimestamp) } : {}),
    ...(json.memo !== undefined ? { memo: String(json.memo) } : {}),
  };
}

/** Keys from snake_case to camelCase, all the way down; string values (a memo's JSON) untouched. */
export function camelCaseJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCaseJson);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
      camelCaseJson(inner),
    ]),
  );
}

const NUMBER_LITERAL = /-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

/**
 * JSON.parse with every integer literal read as its decimal string: Skip writes a MsgTransfer's
 * timeout_timestamp (nanoseconds, beyond 2^53) as a bare number, which a double would round.
 */
export function parseJsonIntegersAsStrings(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    NUMBER_LITERAL.lastIndex = i;
    const number = c === '-' || (c >= '0' && c <= '9') ? NUMBER_LITERAL.exec(text) : null;
    if (number) {
      const literal = number[0];
      out += number[1] === undefined && number[2] === undefined ? `"${literal}"` : literal;
      i += literal.length - 1;
      continue;
    }
    out += c;
  }
  return JSON.parse(out);
}
