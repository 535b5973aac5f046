import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * Ports are probed below Linux's default ephemeral range (32768–60999): the kernel gives those to
 * every outgoing socket (a suite's connections to Kafka, PostgreSQL, a chain), so a port probed free
 * there can be taken by a connect() of a suite running beside it before the process meant for it
 * binds it. Nothing takes a port of this range unless it asks for that port; the bench's stack and
 * npm test's broker prefer ports just above it (28000–29999), so no probe here races their start.
 */
const FIRST_PORT = 20_000;
const LAST_PORT = 27_999;
const ATTEMPTS = 200;

/**
 * Suites run side by side in several processes, each picking ports here: a port one process probed
 * free stays free until its server binds it (a broker's JVM takes seconds), and another process must
 * not pick it meanwhile. A port handed out is reserved for the life of the process that took it: a
 * file named after it, created exclusively, holding that process's pid. A reservation whose process
 * is gone is stale and taken over.
 */
const RESERVATIONS = path.join(os.tmpdir(), 'swapgw-test-ports');
const reservedHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when this process now holds `port`'s reservation. */
function reserve(port: number): boolean {
  fs.mkdirSync(RESERVATIONS, { recursive: true });
  const file = path.join(RESERVATIONS, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      if (reservedHere.size === 0) process.once('exit', releaseAll);
      reservedHere.add(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(file, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) return false;
      fs.rmSync(file, { force: true }); // stale: its process is gone; the exclusive create decides
    }
  }
  return false;
}

function releaseAll(): void {
  for (const file of reservedHere) fs.rmSync(file, { force: true });
  reservedHere.clear();
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, outside the ephemeral range, and that
 * no other process of this machine's test runs has been given.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = FIRST_PORT + Math.floor(Math.random() * (LAST_PORT - FIRST_PORT + 1));
    if ((await listensFree(port)) && reserve(port)) return port;
  }
  throw new Error(`no free port in ${FIRST_PORT}–${LAST_PORT} after ${ATTEMPTS} tries`);
}

/**
 * A free port whose successor is free too, both reserved (a broker's controller listens on
 * port + 1).
 */
export async function freeConsecutivePorts(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = FIRST_PORT + Math.floor(Math.random() * (LAST_PORT - FIRST_PORT));
    if ((await listensFree(port)) && (await listensFree(port + 1)) && reserve(port)) {
      if (reserve(port + 1)) return port;
    }
  }
  throw new Error(`no two consecutive free ports in ${FIRST_PORT}–${LAST_PORT} after ${ATTEMPTS} tries`);
}

function listensFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    });
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `count` free ports other than `taken` and each other: a port probed free but not bound yet may be
 * probed free again (a broker's controller port, port + 1, is bound only when it starts).
 */
export async function freePortsBesides(count: number, taken: readonly number[]): Promise<number[]> {
  const used = new Set(taken);
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await freePort();
    if (used.has(port)) continue;
    used.add(port);
    ports.push(port);
  }
  return ports;
}
