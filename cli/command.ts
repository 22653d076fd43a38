import type { ParseArgsOptionsConfig } from 'node:util';
import type { OptionValues } from './args.js';
import type { CliSession } from './session.js';

/** What a command prints: one JSON object for `--json`, or lines for a person. */
export interface CommandResult {
  json: Record<string, unknown>;
  text: string;
}

/**
 * One CLI command. `parse` checks the arguments (usage errors, exit 2) before anything touches the
 * database; `run` does the work against an open session.
 */
export interface Command<Input = unknown> {
  name: string;
  summary: string;
  /** The command's options, as shown by --help. */
  usage: string;
  /** Extra help lines. */
  notes?: string[];
  options: ParseArgsOptionsConfig;
  parse(values: OptionValues): Input;
  run(session: CliSession, input: Input): Promise<CommandResult>;
}

export const defineCommand = <Input>(command: Command<Input>): Command<Input> => command;
