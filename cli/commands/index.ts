import type { Command } from '../command.js';
import { bootstrap } from './bootstrap.js';
import { listen } from './listen.js';
import { memberAdd } from './member-add.js';
import { orgCreate } from './org-create.js';
import { tokenCreate } from './token-create.js';
import { tokenRevoke } from './token-revoke.js';
import { userCreate } from './user-create.js';

/** Every command, in the order --help lists them. */
export const COMMANDS: readonly Command<any>[] = [
  bootstrap,
  tokenCreate,
  tokenRevoke,
  userCreate,
  orgCreate,
  memberAdd,
  listen,
];
