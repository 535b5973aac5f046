import type { GatewayRequest } from '../http/gateway-request';

export interface ApiMeta {
  requestId: string;
  timestamp: string;
}

export const apiMetaOf = (request: GatewayRequest): ApiMeta => ({
  requestId: request.requestContext?.requestId ?? 'unknown',
  timestamp: new Date().toISOString(),
});
