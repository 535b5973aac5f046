// @swapgw/sdk: the gateway's typed HTTP client. Every path, parameter, request body and response
// (success and error) is typed from the OpenAPI document the gateway serves (apps/gateway/openapi.json):
// gateway-api.d.ts is generated from it by `npm run openapi`, and `npm test` fails when it is stale.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './gateway-api';

export type { components, operations, paths } from './gateway-api';
export type { Client, Middleware } from 'openapi-fetch';

type Schemas = components['schemas'];

export interface GatewayClientOptions {
  /** The gateway's API root, `http://host:port/api/v1`: the document's paths are relative to it. */
  baseUrl: string;
  /** An API key (`sgw_...`, made by `npm run keys`), sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Another fetch (a proxy agent, a test's recorder); the global fetch by default. */
  fetch?: ClientOptions['fetch'];
}

/** `client.GET('/swap/{swapId}', { params: { path: { swapId } } })` → `{ data } | { error }`, both typed. */
export type GatewayClient = Client<paths>;

export function createGatewayClient({ baseUrl, apiKey, fetch }: GatewayClientOptions): GatewayClient {
  return createClient<paths>({ baseUrl, fetch, headers: { Authorization: `Bearer ${apiKey}` } });
}

// The schemas a wallet's code names most, under short names.
export type Chain = Schemas['ChainDto'];
export type Token = Schemas['TokenDto'];
export type QuoteRequest = Schemas['CreateQuoteDto'];
export type Quote = Schemas['QuoteResponse'];
export type QuoteRoute = Schemas['QuoteRouteSummaryDto'];
export type BuildSwapRequest = Schemas['BuildSwapDto'];
/** mode `sync` (POST /swap/build 200, GET /swap/{swapId}/signing 200): a payload to sign now. */
export type SigningReady = Schemas['SyncSigningResponseDto'];
/** mode `async` (202): nothing to sign yet; poll GET /swap/{swapId}/signing after `pollAfterMs`. */
export type SigningPending = Schemas['AsyncSigningResponseDto'];
/** What the wallet signs; narrow on `type`. */
export type SigningPayload = SigningReady['signing']['payload'];
export type EvmTransactionPayload = Schemas['EvmTransactionPayloadDto'];
export type EvmTypedDataPayload = Schemas['EvmTypedDataPayloadDto'];
export type SolanaTransactionPayload = Schemas['SolanaTransactionPayloadDto'];
export type SubmitSignedRequest = Schemas['SubmitSignedTxDto'];
export type SubmittedSigning = Schemas['SubmittedSigningResponseDto'];
export type Swap = Schemas['SwapResourceDto'];
export type SwapStatus = Swap['status'];
export type SwapStep = Schemas['SwapStepResourceDto'];
export type LimitOrder = Schemas['LimitOrderResponse'];
export type Webhook = Schemas['WebhookResponse'];
/** Every error answer: `{ error: { code, message, details? }, meta }`; `code` is stable (the error catalog of the API description). */
export type ApiErrorResponse = Schemas['ApiErrorDto'];
export type ApiError = Schemas['ApiErrorBodyDto'];
