import { randomUUID } from 'node:crypto';
import { api, ApiClient, ApiResponse, createApiKey, e2eGatewayPair, e2eGatewayUrl } from '@swapgw/testing';
import { OpenApiValidator } from './openapi-validator';

/** What an e2e suite talks to the stack the e2e global setup started with. */
export interface E2eApi {
  /** The owner of the suite's API key. */
  owner: string;
  /** The suite's API key (for clients other than `client`, e.g. @swapgw/sdk's). */
  apiKey: string;
  client: ApiClient;
  /** The second gateway instance when the stack runs two (polls go there), else the first. */
  poller: ApiClient;
  openApi: OpenApiValidator;
  /** Asserts that the answer is what the served OpenAPI document promises, and returns it. */
  documented: (method: string, path: string, res: ApiResponse) => ApiResponse;
}

/** A fresh API key (owner `<ownerPrefix>-<random>`) on the started gateways. Call in beforeAll. */
export async function connectE2eApi(ownerPrefix: string): Promise<E2eApi> {
  const gatewayUrl = e2eGatewayUrl();
  const [, secondGatewayUrl] = e2eGatewayPair();
  const owner = `${ownerPrefix}-${randomUUID().slice(0, 8)}`;
  const key = await createApiKey(owner);
  const openApi = await OpenApiValidator.fetch(gatewayUrl);
  return {
    owner,
    apiKey: key,
    client: api(gatewayUrl, key),
    poller: api(secondGatewayUrl, key),
    openApi,
    documented: (method, path, res) => {
      expect(openApi.check(method, path, res.status, res.body)).toEqual({ valid: true, problems: [] });
      return res;
    },
  };
}
