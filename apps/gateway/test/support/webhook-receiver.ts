import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { waitFor } from '@swapgw/testing';

// A webhook receiver for e2e suites: loopback http, which the test stacks let webhooks reach.

export interface Received {
  path: string;
  deliveryId: string;
  eventId: string;
  /** Every header as received (lower-case names): what a Standard Webhooks library verifies. */
  headers: Record<string, string>;
  raw: string;
  body: { id: string; eventId: string; type: string; occurredAtMs: number; data: Record<string, unknown> };
  answered: number | 'held';
}

/** An HTTP server on 127.0.0.1 that records every request and answers what `answer(path, n)` says. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private server!: Server;
  private readonly held: ServerResponse[] = [];
  /** Per path: how to answer the n-th request (1-based) to it. */
  answer: (path: string, n: number) => number | 'hold' = () => 200;

  async start(): Promise<string> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        const path = req.url ?? '';
        const n = this.received.filter((r) => r.path === path).length + 1;
        const decision = this.answer(path, n);
        this.received.push({
          path,
          deliveryId: String(req.headers['webhook-id']),
          eventId: String(req.headers['webhook-event-id']),
          headers: Object.fromEntries(
            Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
          ),
          raw,
          body: JSON.parse(raw),
          answered: decision === 'hold' ? 'held' : decision,
        });
        if (decision === 'hold') {
          this.held.push(res);
          res.on('error', () => undefined);
          return;
        }
        res.writeHead(decision, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /**
   * The deliveries of swap `swapId`'s events, once one of type `until` arrived (within `timeoutMs`):
   * one per delivery id, since a delivery may be retried (at least once) but never split into two ids.
   */
  async swapDeliveries(swapId: string, until: string, timeoutMs = 60_000): Promise<Received[]> {
    const ofSwap = () => this.received.filter((r) => r.body.data.swapId === swapId);
    await waitFor(() => ofSwap().some((r) => r.body.type === until), {
      timeoutMs,
      intervalMs: 200,
      description: `${until} of ${swapId} delivered to the webhook`,
    });
    return [...new Map(ofSwap().map((d) => [d.deliveryId, d])).values()];
  }

  /**
   * Verifies a delivery as an integrator would, with the standardwebhooks package (the reference
   * JavaScript library of Standard Webhooks): throws WebhookVerificationError when it does not verify,
   * returns the parsed body when it does.
   */
  static verify(secret: string, received: Received): unknown {
    return new Webhook(secret).verify(received.raw, received.headers);
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
