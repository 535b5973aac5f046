import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Contract, getAddress, isAddress, isHexString, JsonRpcProvider, ZeroAddress } from 'ethers';
import { REPLICA_WETH_PRICE } from './replica-parameters';

/**
 * The fee model of the replica's Across API, in Across's units (a `pct` is a fraction scaled by
 * 1e18, a `total` is in the input token's base units):
 *  - lpFee: 1 bp of the amount (Across's LP fee follows the HubPool's utilisation; a few bps is usual);
 *  - relayerCapitalFee: 2 bps of the amount (the relayer's capital is lent until repayment);
 *  - relayerGasFee: the fill's gas on the destination chain, a fixed amount of USD per destination
 *    (Ethereum 2.50, Base 0.02, Arbitrum 0.03), in the token at the replica's price 1 WETH = 3000 USDC;
 *  - totalRelayFee = the three, and outputAmount = amount - totalRelayFee (same token both ends);
 *  - limits: minDeposit is ten times the gas fee (below it the gas would be over a tenth of the
 *    amount: isAmountTooLow), maxDeposit (and the instant limits) the relayer's balance of the
 *    output token on the destination, recommendedDepositInstant half of it.
 */
export const ACROSS_REPLICA_FEES = {
  lpFeeBps: 1n,
  capitalFeeBps: 2n,
  /** USD of a fill's gas on each destination, in USDC base units (6 decimals). */
  fillGasUsdc: { ethereum: 2_500_000n, base: 20_000n, arbitrum: 30_000n } as Record<string, bigint>,
  minDepositGasMultiple: 10n,
  /** Across's DEFAULT_FILL_DEADLINE_BUFFER_SECONDS: the fill deadline is the quote time plus 2 hours. */
  fillDeadlineBufferSeconds: 2 * 3600,
} as const;

export interface AcrossFeeApiToken {
  symbol: string;
  address: string;
  decimals: number;
}

export interface AcrossFeeApiChain {
  id: string;
  chainId: number;
  provider: JsonRpcProvider;
  spokePool: string;
  tokens: AcrossFeeApiToken[];
}

export interface AcrossFeeApiOptions {
  chains: AcrossFeeApiChain[];
  /** The filler's address: its balances on the destination are the deposit limits. */
  relayer: string;
  /** What the filler takes from deposit to fill: the quote's expected fill time. */
  expectedFillTimeSec: number;
  host?: string;
  /** 0 = any free port. */
  port?: number;
}

export interface RunningAcrossFeeApi {
  /** The API's base URL, as https://app.across.to/api is: `${url}/suggested-fees`. */
  url: string;
  close(): Promise<void>;
}

/** Across's error body (api/_errors.ts AcrossApiError.toJSON) with its status. */
class AcrossApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }

  toJSON() {
    return {
      type: 'AcrossApiError',
      code: this.code,
      status: this.status,
      message: this.message,
      param: this.param,
    };
  }
}

const ONE = 10n ** 18n;
const BPS = 10_000n;
const DIGITS = /^[0-9]+$/;

/**
 * Serves `GET /api/suggested-fees` as Across's API does (across-protocol/frontend api/suggested-fees.ts):
 * query inputToken, outputToken, originChainId, destinationChainId, amount, recipient, message,
 * skipAmountLimit, timestamp; the answer's fields and its errors (400 with
 * `{ type: "AcrossApiError", code, status, message, param }`: MISSING_PARAM, INVALID_PARAM,
 * ROUTE_NOT_ENABLED, AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH) are Across's. Routes are each catalog token
 * between any two replica chains to the same token; the quote time and block are the origin chain's
 * latest (there is no HubPool on the replica whose clock Across reads). Fees: ACROSS_REPLICA_FEES.
 */
export async function startAcrossFeeApi(options: AcrossFeeApiOptions): Promise<RunningAcrossFeeApi> {
  const server = http.createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method !== 'GET' || url.pathname.replace(/\/$/, '') !== '/api/suggested-fees') {
      send(404, new AcrossApiError(404, 'INVALID_METHOD', `${request.method} ${url.pathname} is not served`));
      return;
    }
    suggestedFees(options, url.searchParams).then(
      (body) => send(200, body),
      (error: unknown) =>
        error instanceof AcrossApiError
          ? send(error.status, error)
          : send(500, new AcrossApiError(500, 'UNEXPECTED_ERROR', (error as Error).message)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host}:${port}/api`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function suggestedFees(options: AcrossFeeApiOptions, query: URLSearchParams): Promise<unknown> {
  const required = (name: string) => {
    const value = query.get(name);
    if (value === null || value === '') throw invalid('MISSING_PARAM', `${name} is required`, name);
    return value;
  };
  const address = (name: string, value: string) => {
    if (!isAddress(value)) throw invalid('INVALID_PARAM', `${name} must be an address`, name);
    return getAddress(value);
  };
  const amountText = required('amount');
  if (!DIGITS.test(amountText))
    throw invalid('INVALID_PARAM', 'amount must be an integer in base units', 'amount');
  const amount = BigInt(amountText);
  const destinationChainId = Number(required('destinationChainId'));
  const inputAddress = address('inputToken', query.get('inputToken') ?? required('token'));
  const originChainId = query.get('originChainId')
    ? Number(query.get('originChainId'))
    : options.chains.find((c) => c.tokens.some((t) => sameAddress(t.address, inputAddress)))?.chainId;

  const origin = options.chains.find((c) => c.chainId === originChainId);
  const destination = options.chains.find((c) => c.chainId === destinationChainId);
  const inputToken = origin?.tokens.find((t) => sameAddress(t.address, inputAddress));
  const outputToken = destination?.tokens.find((t) =>
    query.get('outputToken')
      ? sameAddress(t.address, address('outputToken', query.get('outputToken') as string))
      : t.symbol === inputToken?.symbol,
  );
  if (
    !origin ||
    !destination ||
    origin === destination ||
    !inputToken ||
    outputToken?.symbol !== inputToken.symbol
  )
    throw invalid('ROUTE_NOT_ENABLED', 'Route is not enabled.');

  const recipient = query.get('recipient')
    ? address('recipient', query.get('recipient') as string)
    : undefined;
  const message = query.get('message') ?? '';
  if (message !== '' && message !== '0x') {
    if (!isHexString(message) || message.length % 2 !== 0)
      throw invalid('INVALID_PARAM', 'Message must be an even hex string', 'message');
    if (!recipient || (await destination.provider.getCode(recipient)) === '0x')
      throw invalid('INVALID_PARAM', 'Recipient must be a contract when a message is provided', 'recipient');
  }

  const latest = await origin.provider.getBlock('latest');
  if (!latest) throw new Error(`${origin.id} has no latest block`);
  const timestampText = query.get('timestamp');
  if (timestampText !== null && (!DIGITS.test(timestampText) || Number(timestampText) > latest.timestamp))
    throw invalid('INVALID_PARAM', 'Invalid quote timestamp', 'timestamp');
  const quoteTimestamp = timestampText !== null ? Number(timestampText) : latest.timestamp;

  const lpFee = (amount * ACROSS_REPLICA_FEES.lpFeeBps) / BPS;
  const capitalFee = (amount * ACROSS_REPLICA_FEES.capitalFeeBps) / BPS;
  const gasFee = inTokenUnits(ACROSS_REPLICA_FEES.fillGasUsdc[destination.id] ?? 0n, inputToken);
  const totalFee = lpFee + capitalFee + gasFee;
  const pct = (total: bigint) => (amount === 0n ? '0' : ((total * ONE) / amount).toString());

  const relayerBalance = (await new Contract(
    outputToken.address,
    ['function balanceOf(address) view returns (uint256)'],
    destination.provider,
  ).balanceOf(options.relayer)) as bigint;
  const minDeposit = gasFee * ACROSS_REPLICA_FEES.minDepositGasMultiple;
  const isAmountTooLow = amount < minDeposit;
  if (amount > relayerBalance)
    throw invalid(
      'AMOUNT_TOO_HIGH',
      `Amount exceeds max. deposit limit: ${relayerBalance} ${inputToken.symbol}`,
    );
  if (isAmountTooLow && query.get('skipAmountLimit') !== 'true')
    throw invalid('AMOUNT_TOO_LOW', 'Sent amount is too low relative to fees');

  const outputAmount = amount > totalFee ? amount - totalFee : 0n;
  return {
    estimatedFillTimeSec: options.expectedFillTimeSec,
    expectedFillTimeSec: options.expectedFillTimeSec,
    capitalFeePct: pct(capitalFee),
    capitalFeeTotal: capitalFee.toString(),
    relayGasFeePct: pct(gasFee),
    relayGasFeeTotal: gasFee.toString(),
    relayFeePct: pct(totalFee),
    relayFeeTotal: totalFee.toString(),
    lpFeePct: '0',
    timestamp: quoteTimestamp.toString(),
    isAmountTooLow,
    quoteBlock: latest.number.toString(),
    exclusiveRelayer: ZeroAddress,
    exclusivityDeadline: 0,
    spokePoolAddress: origin.spokePool,
    destinationSpokePoolAddress: destination.spokePool,
    totalRelayFee: { pct: pct(totalFee), total: totalFee.toString() },
    relayerCapitalFee: { pct: pct(capitalFee), total: capitalFee.toString() },
    relayerGasFee: { pct: pct(gasFee), total: gasFee.toString() },
    lpFee: { pct: pct(lpFee), total: lpFee.toString() },
    limits: {
      minDeposit: minDeposit.toString(),
      maxDeposit: relayerBalance.toString(),
      maxDepositInstant: relayerBalance.toString(),
      maxDepositShortDelay: relayerBalance.toString(),
      recommendedDepositInstant: (relayerBalance / 2n).toString(),
    },
    fillDeadline: (quoteTimestamp + ACROSS_REPLICA_FEES.fillDeadlineBufferSeconds).toString(),
    outputAmount: outputAmount.toString(),
    inputToken: { ...inputToken, chainId: origin.chainId },
    outputToken: { ...outputToken, chainId: destination.chainId },
  };
}

/** USDC base units as the token's: USDC as is, WETH at the replica's price. */
function inTokenUnits(usdc: bigint, token: AcrossFeeApiToken): bigint {
  if (token.symbol === 'USDC') return usdc;
  if (token.symbol === 'WETH') return (usdc * REPLICA_WETH_PRICE.weth) / REPLICA_WETH_PRICE.usdc;
  throw new Error(`no price for ${token.symbol} on the replica`);
}

const invalid = (code: string, message: string, param?: string) =>
  new AcrossApiError(400, code, message, param);
const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
