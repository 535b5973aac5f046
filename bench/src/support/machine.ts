import os from 'node:os';

export interface MachineDescription {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  /** 1, 5 and 15 minute load averages when the run started: a busy machine makes every figure worse. */
  loadAverage: number[];
  platform: string;
  node: string;
}

export function describeMachine(): MachineDescription {
  const cpus = os.cpus();
  const gib = (bytes: number) => Math.round((bytes / 1024 ** 3) * 10) / 10;
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: gib(os.totalmem()),
    freeMemoryGiB: gib(os.freemem()),
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}
