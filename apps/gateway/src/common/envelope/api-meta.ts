import type { GatewayRequest } from '../http/gateway-request';

export interface ApiMeta {
  requestId: string;
  timestamp: string;
}

/** The ISO timestamp of the last millisecond asked for: under load, many answers share one. */
let lastTimestamp = { ms: Number.NaN, iso: '' };

function isoTimestamp(nowMs: number): string {
  if (lastTimestamp.ms !== nowMs) lastTimestamp = { ms: nowMs, iso: new Date(nowMs).toISOString() };
  return lastTimestamp.iso;
}

export const apiMetaOf = (request: GatewayRequest, nowMs: number): ApiMeta => ({
  requestId: request.requestContext?.requestId ?? 'unknown',
  timestamp: isoTimestamp(nowMs),
});

/** The envelope's `meta` as JSON, for answers written without the framework (the edge of cached reads). */
export const apiMetaJson = (requestId: string, nowMs: number): string =>
  `{"requestId":${JSON.stringify(requestId)},"timestamp":"${isoTimestamp(nowMs)}"}`;
