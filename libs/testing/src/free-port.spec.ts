import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freeConsecutivePorts, freePort } from './free-port';

const RESERVATIONS = path.join(os.tmpdir(), 'swapgw-test-ports');
/** Math.random() that makes freePort try `port` (the range starts at 20000 and holds 8000 ports). */
const randomFor = (port: number) => (port - 20_000 + 0.5) / 8_000;
/** Above any Linux pid_max: no process has it. */
const DEAD_PID = 4_194_304 + 12_345;

describe('freePort', () => {
  afterEach(() => jest.restoreAllMocks());

  it('hands out ports below the ephemeral range, and none twice', async () => {
    const ports = await Promise.all(Array.from({ length: 40 }, () => freePort()));
    expect(ports.every((p) => p >= 20_000 && p <= 27_999)).toBe(true);
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('passes over a port another live process holds, and takes over one whose process is gone', async () => {
    fs.mkdirSync(RESERVATIONS, { recursive: true });
    const held = 27_001;
    const stale = 27_003;
    fs.writeFileSync(path.join(RESERVATIONS, String(held)), String(process.ppid));
    fs.writeFileSync(path.join(RESERVATIONS, String(stale)), String(DEAD_PID));
    jest.spyOn(Math, 'random').mockReturnValueOnce(randomFor(held)).mockReturnValueOnce(randomFor(stale));

    expect(await freePort()).toBe(stale);
    expect(fs.readFileSync(path.join(RESERVATIONS, String(stale)), 'utf8')).toBe(String(process.pid));
    expect(fs.readFileSync(path.join(RESERVATIONS, String(held)), 'utf8')).toBe(String(process.ppid));
    fs.rmSync(path.join(RESERVATIONS, String(held)), { force: true });
  });

  it('reserves both ports of a consecutive pair', async () => {
    const port = await freeConsecutivePorts();
    for (const p of [port, port + 1])
      expect(fs.readFileSync(path.join(RESERVATIONS, String(p)), 'utf8')).toBe(String(process.pid));
  });
});
