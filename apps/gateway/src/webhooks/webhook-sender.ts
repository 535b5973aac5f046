import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { EVENT_ID_HEADER, signedHeaders } from './webhook-signature';
import { guardedLookup, WebhookUrlPolicy } from './webhook-url-policy';

export interface SendOutcome {
  /** 2xx */
  delivered: boolean;
  responseStatus: number | null;
  /** Why no answer came (timeout, refused target, connection error), or the non-2xx status. */
  error: string | null;
}

/** The longest answer body read (and then dropped): receivers only need to answer a status. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one signed delivery. The socket connects only to addresses the URL policy allows, checked
 * on the resolved addresses at connect time (guardedLookup), redirects are not followed (a 3xx is a
 * failure: a redirect could point anywhere), and the whole exchange is bounded by `timeoutMs`.
 */
export function sendDelivery(
  target: { url: string; secret: string; deliveryId: string; eventId: string; body: string },
  policy: WebhookUrlPolicy,
  timeoutMs: number,
  nowSeconds: number,
): Promise<SendOutcome> {
  const url = new URL(target.url);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = request(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(policy),
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(target.body),
          'user-agent': 'swapgw-webhooks/1',
          ...signedHeaders(target.secret, target.deliveryId, nowSeconds, target.body),
          [EVENT_ID_HEADER]: target.eventId,
        },
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        const status = res.statusCode ?? 0;
        const done = () =>
          settle(
            status >= 200 && status < 300
              ? { delivered: true, responseStatus: status, error: null }
              : { delivered: false, responseStatus: status, error: `HTTP ${status}` },
          );
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (error: Error) =>
      settle({ delivered: false, responseStatus: null, error: error.message }),
    );
    req.end(target.body);
  });
}
