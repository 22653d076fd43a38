import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * What a start that finds its port taken says: one line naming the port, who holds it when this
 * machine can tell (Linux's /proc, readable for the holder's own user or root), and the setting that
 * moves it. The alternative was a stack trace, or PostgreSQL's log, that never named the setting.
 */
export function portInUseMessage(port: number, what: string, variable: string): string {
  const holder = portHolder(port);
  return `Port ${port} (${what}) is already in use${holder ? ` by ${holder}` : ''}: set ${variable} to a free port.`;
}

/** `pid 123 (node server.js)` for the process listening on the TCP port, or null when unknown. */
export function portHolder(port: number): string | null {
  try {
    const inodes = listeningSocketInodes(port);
    if (inodes.size === 0) return null;
    for (const pid of readdirSync('/proc').filter(name => /^\d+$/.test(name))) {
      if (holdsSocket(pid, inodes)) return `pid ${pid} (${commandOf(pid)})`;
    }
  } catch {
    // No /proc (not Linux) or not readable: the message goes without the holder.
  }
  return null;
}

/** Inodes of the sockets listening on `port`, from /proc/net/tcp and tcp6 (state 0A is LISTEN). */
function listeningSocketInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const [, local, , state] = fields;
      if (state === '0A' && local.endsWith(`:${hexPort}`)) inodes.add(fields[9]);
    }
  }
  return inodes;
}

function holdsSocket(pid: string, inodes: Set<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return true;
    } catch {
      // The descriptor closed meanwhile.
    }
  }
  return false;
}

function commandOf(pid: string): string {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .join(' ')
      .replace(/\s+/g, ' ');
    return command.length > 80 ? `${command.slice(0, 77)}...` : command || 'unknown';
  } catch {
    return 'unknown';
  }
}
