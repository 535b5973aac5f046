import http from 'node:http';
import type { Socket } from 'node:net';
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
