import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './gateway-api';

export interface GatewayClientOptions {
  /** The gateway's API root, `http://host:port/api/v1`: the document's paths are relative to it. */
  baseUrl: string;
  /** An API key (`sgw_...`), sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Another fetch (a proxy agent, a test's recorder); the global fetch by default. */
  fetch?: ClientOptions['fetch'];
}

/** `client.GET('/swap/{swapId}', { params: { path: { swapId } } })` → `{ data } | { error }`, both typed. */
export type GatewayClient = Client<paths>;

export function createGatewayClient({ baseUrl, apiKey, fetch }: GatewayClientOptions): GatewayClient {
  return createClient<paths>({ baseUrl, fetch, headers: { Authorization: `Bearer ${apiKey}` } });
}
