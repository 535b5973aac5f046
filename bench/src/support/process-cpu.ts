// CPU time of the run's processes and of the whole machine over a window, read from /proc (Linux).
// The soak divides it by the swaps that reached a ready payload: CPU-milliseconds per swap is the
// figure that does not depend on how many other jobs share the machine, unlike swaps/s.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** A named set of processes whose CPU time is added up (an app, the broker, PostgreSQL backends). */
export interface ProcessGroup {
  name: string;
  pids: number[];
  /** Count the processes they started too (the devnet CLI runs anvil as its children). */
  withDescendants: boolean;
  /** Outside the system under test (the devnet stands in for chain RPC): shown, not in the service total. */
  excludeFromServiceTotal?: boolean;
}

interface ProcStat {
  ppid: number;
  /** utime + stime in clock ticks. */
  ticks: number;
  /** Start time in ticks since boot: with the pid it identifies a process across pid reuse. */
  startTicks: number;
}

/** CPU ticks per process of each group, keyed by "pid:start" so a reused pid is never subtracted. */
export interface CpuSnapshot {
  takenAtMs: number;
  groups: Array<{ group: ProcessGroup; ticksByProcess: Map<string, number> }>;
  machine: { busyTicks: number; totalTicks: number };
}

export interface GroupCpu {
  name: string;
  processes: number;
  cpuMs: number;
  inServiceTotal: boolean;
}

export interface CpuUsage {
  wallMs: number;
  groups: GroupCpu[];
  /** Apps, broker and PostgreSQL backends of the bench database. */
  serviceCpuMs: number;
  /** serviceCpuMs plus the groups outside the system under test (devnet). */
  allCpuMs: number;
  /** The bench process itself (load generator, prober): competes for the cores, not in any total. */
  loadGeneratorCpuMs: number;
  /** Busy share of all cores during the window, from /proc/stat: includes whatever else runs on the machine. */
  machineBusyPercent: number;
  /** serviceCpuMs as a share of all cores over the window: the run's own part of machineBusyPercent. */
  serviceSharePercent: number;
  cores: number;
}

let clockTicksPerSecond: number | undefined;

/** USER_HZ: the unit of /proc/<pid>/stat and /proc/stat times (100 on every common Linux). */
function ticksPerSecond(): number {
  if (clockTicksPerSecond === undefined) {
    try {
      clockTicksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicksPerSecond = 100;
    }
  }
  return clockTicksPerSecond;
}

function readProcStat(pid: number): ProcStat | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: fields are counted after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
      startTicks: Number(fields[19]),
    };
  } catch {
    return undefined; // exited between the listing and the read
  }
}

function allProcesses(): Map<number, ProcStat> {
  const processes = new Map<number, ProcStat>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(Number(entry));
    if (stat) processes.set(Number(entry), stat);
  }
  return processes;
}

function withDescendants(roots: readonly number[], processes: Map<number, ProcStat>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, stat] of processes) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  const found = new Set<number>();
  const stack = [...roots];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    if (found.has(pid)) continue;
    found.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return [...found];
}

function machineTicks(): { busyTicks: number; totalTicks: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
  // cpu user nice system idle iowait irq softirq steal (guest times are already in user and nice)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busyTicks = user + nice + system + irq + softirq + (steal || 0);
  return { busyTicks, totalTicks: busyTicks + idle + (iowait || 0) };
}

/** CPU-milliseconds one process (without its children) has used so far, or undefined once it is gone. */
export function processCpuMs(pid: number): number | undefined {
  const stat = readProcStat(pid);
  return stat ? (stat.ticks * 1000) / ticksPerSecond() : undefined;
}

export function cpuAccountingAvailable(): boolean {
  return fs.existsSync('/proc/stat');
}

export function takeCpuSnapshot(groups: readonly ProcessGroup[]): CpuSnapshot {
  const processes = allProcesses();
  return {
    takenAtMs: Date.now(),
    machine: machineTicks(),
    groups: groups.map((group) => {
      const pids = group.withDescendants ? withDescendants(group.pids, processes) : group.pids;
      const ticksByProcess = new Map<string, number>();
      for (const pid of pids) {
        const stat = processes.get(pid);
        if (stat) ticksByProcess.set(`${pid}:${stat.startTicks}`, stat.ticks);
      }
      return { group, ticksByProcess };
    }),
  };
}

/**
 * CPU used between two snapshots. A process present only in `after` started inside the window
 * (an instance started during the burst, a new pool connection): all of its time counts. A
 * process that exited inside the window is missed (its time is no longer readable).
 */
export function cpuUsageBetween(
  before: CpuSnapshot,
  after: CpuSnapshot,
  loadGeneratorCpuMs: number,
): CpuUsage {
  const msPerTick = 1000 / ticksPerSecond();
  const groups: GroupCpu[] = after.groups.map(({ group, ticksByProcess }) => {
    const earlier =
      before.groups.find((g) => g.group.name === group.name)?.ticksByProcess ?? new Map<string, number>();
    let ticks = 0;
    for (const [key, value] of ticksByProcess) ticks += value - (earlier.get(key) ?? 0);
    return {
      name: group.name,
      processes: ticksByProcess.size,
      cpuMs: Math.round(ticks * msPerTick),
      inServiceTotal: !group.excludeFromServiceTotal,
    };
  });
  const wallMs = after.takenAtMs - before.takenAtMs;
  const serviceCpuMs = groups.filter((g) => g.inServiceTotal).reduce((sum, g) => sum + g.cpuMs, 0);
  const allCpuMs = groups.reduce((sum, g) => sum + g.cpuMs, 0);
  const busy = after.machine.busyTicks - before.machine.busyTicks;
  const total = after.machine.totalTicks - before.machine.totalTicks;
  const cores = os.cpus().length;
  return {
    wallMs,
    groups,
    serviceCpuMs,
    allCpuMs,
    loadGeneratorCpuMs: Math.round(loadGeneratorCpuMs),
    machineBusyPercent: total > 0 ? Math.round((busy / total) * 1000) / 10 : Number.NaN,
    serviceSharePercent: wallMs > 0 ? Math.round((serviceCpuMs / (wallMs * cores)) * 1000) / 10 : Number.NaN,
    cores,
  };
}
