import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { ErrorCatalog } from '@swapgw/contracts';
import { isWellFormedRequestId } from '@swapgw/runtime';

/**
 * Answers requests that Node's HTTP parser refuses before any route runs (a request head over
 * 16 KiB, a malformed request line) with the ApiError body, like every other error of the API.
 * Installed as Fastify's `clientErrorHandler`.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const code = error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'MALFORMED_REQUEST';
  const { status, description } = ErrorCatalog[code];
  const requestId = randomUUID();
  const body = JSON.stringify({
    error: { code, message: description },
    meta: { requestId, timestamp: new Date().toISOString() },
  });
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/**
 * The answer to what Fastify refuses before routing (e.g. a path with a broken percent-escape,
 * FST_ERR_BAD_URL): the ApiError body, 400 MALFORMED_REQUEST. Used by `frameworkErrors`.
 */
export function frameworkErrorAnswer(headers: Record<string, string | string[] | undefined>): {
  status: number;
  requestId: string;
  body: string;
} {
  const incoming = headers['x-request-id'];
  const requestId = isWellFormedRequestId(incoming) ? incoming : randomUUID();
  return {
    status: ErrorCatalog.MALFORMED_REQUEST.status,
    requestId,
    body: JSON.stringify({
      error: {
        code: 'MALFORMED_REQUEST',
        message: 'The request URL could not be decoded (broken percent-escape).',
      },
      meta: { requestId, timestamp: new Date().toISOString() },
    }),
  };
}
