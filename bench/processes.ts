import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';

/**
 * Processes the benchmark starts, and what it reads about them from /proc. Every child is
 * remembered until it exits, so an error or Ctrl-C still ends all of them (see `killAllChildren`).
 */

const children = new Set<ChildProcess>();

/**
 * Which CPUs the servers and the load generator get: apart when the machine has two or more.
 * `all` is every CPU, given explicitly to processes meant to float: children inherit the
 * affinity of this process, which is pinned to the load generator's CPU.
 */
export interface Pinning {
  server: string | null;
  load: string | null;
  all: string | null;
}

export function choosePinning(): Pinning {
  const cpus = availableParallelism();
  if (cpus < 2 || !commandExists('taskset')) {
    return { server: null, load: null, all: null };
  }
  return { server: '0', load: '1', all: `0-${cpus - 1}` };
}

export function commandExists(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Moves this process (the load generator: autocannon runs in it) onto its own CPU. */
export function pinSelf(cpu: string | null): void {
  if (cpu !== null) {
    execFileSync('taskset', ['-p', '-c', cpu, String(process.pid)], { stdio: 'ignore' });
  }
}

export interface StartedProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  logFile: string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** CPU list for taskset, or null to leave the process on every CPU. */
  cpus: string | null;
  logFile: string;
}

/** Starts a command (pinned with taskset when asked), its stdout and stderr going to `logFile`. */
export function startProcess(options: StartOptions): StartedProcess {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, 'w');
  const [command, args] =
    options.cpus === null ? [options.command, options.args] : ['taskset', ['-c', options.cpus, options.command, ...options.args]];
  // taskset execs the command, so the pid is the command's own.
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', log, log] });
  closeSync(log);
  if (child.pid === undefined) {
    throw new Error(`could not start ${options.name}`);
  }
  children.add(child);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(signal ?? String(code));
    });
  });
  const pid = child.pid;
  return {
    name: options.name,
    child,
    pid,
    logFile: options.logFile,
    exited,
    stop: () => stopProcess(child, exited),
  };
}

/** SIGTERM, then SIGKILL after `graceMs`: a server that ignores the polite signal still ends. */
async function stopProcess(child: ChildProcess, exited: Promise<string>, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Synchronous, for `exit` handlers: whatever is still running is killed outright. */
export function killAllChildren(): void {
  for (const child of children) {
    child.kill('SIGKILL');
  }
  children.clear();
}

let cleanupInstalled = false;

/** Servers never outlive the benchmark: on normal exit, Ctrl-C, SIGTERM or a crash. */
export function installCleanup(): void {
  if (cleanupInstalled) {
    return;
  }
  cleanupInstalled = true;
  process.on('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      killAllChildren();
      process.stderr.write(`\n${signal}: servers stopped\n`);
      process.exit(130);
    });
  }
}

/** A port that was free a moment ago on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

let clockTicks: number | undefined;

/** Kernel clock ticks per second (`getconf CLK_TCK`), the unit of /proc CPU times. */
export function clockTicksPerSecond(): number {
  if (clockTicks === undefined) {
    clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  }
  return clockTicks;
}

/** CPU time (user + system) a process has used so far, in milliseconds; 0 once it is gone. */
export function cpuMillis(pid: number): number {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) {
    return 0;
  }
  let stat: string;
  try {
    stat = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicksPerSecond();
}

export function totalCpuMillis(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + cpuMillis(pid), 0);
}

/** A value in kB from /proc/<pid>/status (VmHWM: peak resident set; VmRSS: current), in MiB. */
export function statusMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
