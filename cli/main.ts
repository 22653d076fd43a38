import 'reflect-metadata';
import { type Config, loadConfig } from '../kit/config.js';
import { environmentOf, parseOptions } from './args.js';
import type { Command } from './command.js';
import { COMMANDS } from './commands/index.js';
import { describeError, EXIT_USAGE, UsageError } from './errors.js';
import type { CliSession } from './session.js';

/**
 * Operator CLI (`npx billing-cli <command> [options]`, or `npm run -s cli -- …`): bootstraps an instance and manages users,
 * organizations and access tokens, on the same data as a running `npm start`.
 * stdout carries only the result (one JSON line with --json); messages and errors go to stderr.
 */
const PROGRAM = 'npx billing-cli';

function generalHelp(): string {
  const width = Math.max(...COMMANDS.map(c => c.name.length));
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...COMMANDS.map(c => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options every command takes:',
    '  --env production|sandbox  the environment to act on (default: production)',
    '  --json                    print the result as one JSON line on stdout',
    "  --help, -h                show the command's options",
    '',
    "The data is the running server's: DATABASE_URL / SANDBOX_DATABASE_URL when set, otherwise the",
    'embedded PostgreSQL under DATA_DIR (default .data), started for the command when the server is not running.',
    `Run "${PROGRAM} <command> --help" for a command's options. From npm: npm run -s cli -- <command> (-s keeps npm's banner, which repeats the command line, off stdout).`,
  ].join('\n');
}

function commandHelp(command: Command): string {
  return [
    `Usage: ${PROGRAM} ${command.name} ${command.usage}`,
    '',
    command.summary + '.',
    ...(command.notes ?? []).map(n => `  ${n}`),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    // Asked for: stdout, success. No command at all: a usage error, so the help goes to stderr.
    (name === undefined ? process.stderr : process.stdout).write(`${generalHelp()}\n`);
    return name === undefined ? EXIT_USAGE : 0;
  }
  const command = COMMANDS.find(c => c.name === name);
  if (!command)
    throw new UsageError(name.startsWith('-') ? `expected a command before ${name}` : `unknown command "${name}"`);

  const values = parseOptions(rest, command.options);
  if (values.help) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return 0;
  }
  const environment = environmentOf(values);
  const input = command.parse(values);

  config = loadConfig();
  const note = (line: string) => {
    if (process.stderr.isTTY) process.stderr.write(`${line}\n`);
  };
  // Loaded only for a command that runs: the ORM and the identity runtime are most of the CLI's start-up,
  // which --help and a usage error do without.
  const { openSession } = await import('./session.js');
  session = await openSession(config, environment, note);
  const result = await command.run(session, input);
  // Printed before closing: tokens exist only in this output, so a failure to stop cleanly must not lose them.
  process.stdout.write(values.json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
  await closeSession();
  return 0;
}

let config: Config | undefined;
let session: CliSession | undefined;

/** Closes the database connections and stops the embedded PostgreSQL if this command started it. */
async function closeSession(): Promise<void> {
  const open = session;
  session = undefined;
  await open?.close();
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`error: interrupted (${signal})\n`);
    void closeSession().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

main(process.argv.slice(2)).then(
  code => process.exit(code),
  async error => {
    await closeSession().catch(() => undefined);
    const verbose = config?.LOG_LEVEL === 'debug' || config?.LOG_LEVEL === 'trace';
    const { exitCode, message } = describeError(error, verbose);
    process.stderr.write(`error: ${message}\n`);
    process.exit(exitCode);
  },
);
