import http from 'node:http';
import type { Socket } from 'node:net';
import { acceptQueueLength } from '@swapgw/runtime';
import { percentile } from './stats';

export interface ClientConnectionFigures {
  /** Connections the load client opened while it was watched. */
  opened: number;
  /** Of those, connected (the TCP handshake done: the gateway's kernel took it). */
  connected: number;
  /** From asking for the socket to its 'connect', over the connected ones. */
  connectP50Ms: number;
  connectP99Ms: number;
  connectMaxMs: number;
}

/**
 * Times the connections the load client's agents open: how long each TCP connect took. A request
 * sent on a new connection waits for it before the gateway can see it, so a slow connect is time
 * the client counts and the gateway's own timing does not.
 */
export function watchClientConnections(agents: readonly http.Agent[]): { stop(): ClientConnectionFigures } {
  const connectMs: number[] = [];
  let opened = 0;
  let watching = true;
  const restore = agents.map((agent) => {
    const original = agent.createConnection.bind(agent);
    agent.createConnection = ((...args: Parameters<typeof original>) => {
      const startedAt = performance.now();
      const socket = original(...args) as Socket;
      if (watching) {
        opened++;
        socket.once('connect', () => {
          if (watching) connectMs.push(performance.now() - startedAt);
        });
      }
      return socket;
    }) as typeof agent.createConnection;
    return () => (agent.createConnection = original);
  });
  return {
    stop() {
      watching = false;
      restore.forEach((undo) => undo());
      const sorted = [...connectMs].sort((a, b) => a - b);
      const round = (ms: number) => Math.round(ms * 10) / 10;
      return {
        opened,
        connected: sorted.length,
        connectP50Ms: round(percentile(sorted, 50)),
        connectP99Ms: round(percentile(sorted, 99)),
        connectMaxMs: round(sorted[sorted.length - 1] ?? 0),
      };
    },
  };
}

export interface AcceptQueueFigures {
  /** Readings of the gateway's accept queue during the burst (every 250 ms). */
  samples: number;
  /** Of those, readings with a connection waiting. */
  waitingSamples: number;
  /** The most connections waiting at once. */
  maxWaiting: number;
}

/**
 * Reads the kernel's accept queue of the gateway's port during the burst (what the gateway's
 * swapgw_http_accept_queue_connections reads, read here so that the gateway renders no /metrics
 * during the burst): connections its clients count connected and it has not accepted. Undefined
 * where the kernel has no such tables.
 */
export function watchAcceptQueue(
  gatewayUrl: string,
  everyMs = 250,
): { stop(): Promise<AcceptQueueFigures | undefined> } {
  const port = Number(new URL(gatewayUrl).port);
  const readings: Array<number | undefined> = [];
  let reading: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    reading = acceptQueueLength(port).then((waiting) => void readings.push(waiting));
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await reading;
      const known = readings.filter((n): n is number => n !== undefined);
      if (known.length === 0) return undefined;
      return {
        samples: known.length,
        waitingSamples: known.filter((n) => n > 0).length,
        maxWaiting: Math.max(...known),
      };
    },
  };
}
