import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { acceptQueueLength } from './accept-queue';

const onLinux = process.platform === 'linux' ? it : it.skip;

/** A listener in another process that never accepts: its event loop spins from the moment it listens. */
async function listenerThatNeverAccepts(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const server = require('node:net').createServer();
       server.listen({ port: 0, host: '127.0.0.1', backlog: 64 }, () => {
         process.stdout.write(server.address().port + '\\n', () => { for (;;); });
       });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`the listener exited (${code})`)));
  });
  return { child, port };
}

const connect = (port: number) =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });

describe('acceptQueueLength', () => {
  onLinux(
    'counts the connections the kernel completed that the listening process has not accepted',
    async () => {
      const { child, port } = await listenerThatNeverAccepts();
      const sockets: net.Socket[] = [];
      try {
        expect(await acceptQueueLength(port)).toBe(0);
        for (let n = 0; n < 7; n++) sockets.push(await connect(port));
        expect(await acceptQueueLength(port)).toBe(7);
      } finally {
        sockets.forEach((socket) => socket.destroy());
        child.kill('SIGKILL');
      }
    },
  );

  onLinux('is 0 for a port nothing listens on', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    expect(await acceptQueueLength(port)).toBe(0);
  });
});
