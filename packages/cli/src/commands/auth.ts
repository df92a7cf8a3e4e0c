import type { Command } from 'commander';
import { oauthStore } from '../auth/loopback-login';
import { CliError } from '../exit-codes';
import { note } from '../io';
import { printJson } from '../output';
import { openSession, type SessionOptions } from '../session';
import { parseTarget } from '../target';
import type { TalkContext } from './talk';

/** `mcpkit auth login|logout <url>`: sign in ahead of time, or forget the tokens kept for a server. */
export function registerAuth(program: Command, context: TalkContext): void {
  const { io } = context;
  const auth = program.command('auth').description('Sign in to an OAuth-protected server, or forget its tokens');
  auth
    .command('login')
    .description('Connect to the server, signing in if it asks (tokens are kept in the config folder)')
    .argument('<url>', 'the MCP endpoint')
    .action(async (url: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals() as SessionOptions;
      const session = await openSession(io, parseTarget(url, []), options);
      await session.close();
      if (options.json) printJson(io, { url, signedIn: true });
      else note(io, `signed in to ${url}`);
    });
  auth
    .command('logout')
    .description('Forget the tokens kept for a server (the client registration is kept)')
    .argument('<url>', 'the MCP endpoint (or its origin: every endpoint under it)')
    .action((url: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals() as SessionOptions;
      if (!/^https?:\/\//.test(url)) throw new CliError('usage', `Not an http(s) URL: ${url}`);
      const store = oauthStore(io.env);
      const forgotten = store.forget(url);
      if (options.json) printJson(io, { url, forgotten });
      else note(io, forgotten ? `forgot the tokens of ${url}` : `no tokens were kept for ${url}`);
    });
}
