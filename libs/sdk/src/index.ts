// @swapgw/sdk: the gateway's TypeScript client for wallets. The typed HTTP client (every path,
// parameter, body and answer typed from the OpenAPI document the gateway serves: gateway-api.d.ts is
// generated from apps/gateway/openapi.json by `npm run openapi`, and `npm test` fails when it is
// stale), runSwap with signer adapters, the swap events stream, and webhook verification.
import type { CosmosSignDirectPayload } from './cosmos-signers';
import type { components } from './gateway-api';

export type { components, operations, paths } from './gateway-api';
export type { Client, Middleware } from 'openapi-fetch';
export { createGatewayClient, type GatewayClient, type GatewayClientOptions } from './client';
export { GatewayApiError } from './errors';
export {
  runSwap,
  TERMINAL_SWAP_STATUSES,
  type RunSwapEvent,
  type RunSwapOptions,
  type RunSwapResult,
} from './run-swap';
export {
  customSigner,
  ethersSigner,
  viemSigner,
  type EthersSignerLike,
  type EvmTransactionMode,
  type SigningContext,
  type SigningPayloadType,
  type SwapSigner,
  type ViemLocalAccountLike,
  type ViemWalletClientLike,
} from './signers';
export {
  base64ToHex,
  leatherSigner,
  satsConnectSigner,
  unisatSigner,
  type LeatherLike,
  type SatsConnectRequest,
  type SatsConnectResponse,
  type UnisatLike,
} from './bitcoin-signers';
export {
  aminoAuthInfoBytes,
  cosmosSigner,
  CosmosSignerError,
  encodeTxRaw,
  type CosmosAccountLike,
  type CosmosAminoSignDoc,
  type CosmosAminoSignerLike,
  type CosmosCoin,
  type CosmosDirectSignerLike,
  type CosmosSignDirectPayload,
  type CosmosSignDoc,
  type CosmosSignerErrorReason,
  type CosmosSignMode,
  type CosmosStdSignature,
} from './cosmos-signers';
export {
  swapEvents,
  TERMINAL_SWAP_EVENTS,
  type SwapEventName,
  type SwapEventsOptions,
  type SwapStreamEvent,
} from './events';
export {
  verifyWebhook,
  webhookSecretKey,
  webhookSignature,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookDelivery,
  type WebhookHeaders,
} from './webhooks';

type Schemas = components['schemas'];

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
/**
 * What the wallet signs; narrow on `type`. The API's payload types, and `cosmos-sign-direct`
 * (CosmosSignDirectPayload), which the SDK defines until the gateway's API document has it.
 */
export type SigningPayload = SigningReady['signing']['payload'] | CosmosSignDirectPayload;
export type EvmTransactionPayload = Schemas['EvmTransactionPayloadDto'];
export type EvmTypedDataPayload = Schemas['EvmTypedDataPayloadDto'];
export type SolanaTransactionPayload = Schemas['SolanaTransactionPayloadDto'];
export type BitcoinPsbtPayload = Schemas['BitcoinPsbtPayloadDto'];
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
