// `mcpkit` as a person uses it: tmux runs a shell, keys are typed with send-keys and the screen is read with
// capture-pane. Against apps/quickstart over stdio and apps/everything-server over Streamable HTTP: a prompted
// argument, a progress bar, an elicitation and a sampling request answered in the terminal.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from './run-cli';

const TMUX = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

const socket = `mcpkit-test-${randomUUID().slice(0, 8)}`;
const quickstart = `-- ${process.execPath} --import ${TSX_LOADER} --conditions=@mcpkit/source ${REPO}apps/quickstart/src/server.ts`;
let everything: ChildProcess | undefined;
let everythingUrl = '';
let pane = 0;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
}

/** A fresh window running a plain shell with `mcpkit` defined as a person would have it on PATH. */
function openWindow(): string {
  const name = `w${pane++}`;
  tmux('new-window', '-d', '-n', name, 'bash', '--norc', '--noprofile');
  const target = `cli:${name}`;
  tmux(
    'send-keys',
    '-t',
    target,
    `PS1='$ '; mcpkit() { ${process.execPath} --import ${TSX_LOADER} --conditions=@mcpkit/source ${REPO}packages/cli/src/bin.ts "$@"; }; clear`,
    'Enter',
  );
  return target;
}

function type(target: string, ...keys: string[]): void {
  tmux('send-keys', '-t', target, ...keys);
}

function screen(target: string): string {
  return tmux('capture-pane', '-p', '-t', target);
}

async function waitForScreen(target: string, text: string | RegExp, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const shown = screen(target);
    if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${String(text)}; the screen:\n${shown}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  if (!TMUX) return;
  tmux('new-session', '-d', '-s', 'cli', '-x', '140', '-y', '40');
  everything = spawn(
    process.execPath,
    ['--import', TSX_LOADER, '--conditions=@mcpkit/source', `${REPO}apps/everything-server/src/main.ts`],
    {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  everythingUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    everything!.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    everything!.once('exit', (code) => reject(new Error(`everything-server exited with ${code}`)));
  });
});

afterAll(() => {
  everything?.kill();
  if (TMUX) {
    try {
      tmux('kill-server');
    } catch {}
  }
});

describe.skipIf(!TMUX)('in a terminal (tmux)', { timeout: 60_000, concurrent: true }, () => {
  it('stdio: a required enum argument is asked for with a list, and the result printed', async () => {
    const window = openWindow();
    type(window, `mcpkit tools call opening-hours ${quickstart}`, 'Enter');
    await waitForScreen(window, '? day');
    type(window, 'Down');
    await waitForScreen(window, /❯ tuesday/);
    type(window, 'Enter');
    const shown = await waitForScreen(window, 'On tuesday we are open');
    expect(shown).toContain('On tuesday we are open 12:00–14:30, 19:00–22:30.');
  });

  it('stdio: an elicitation is answered field by field, with a progress bar on another call', async () => {
    const window = openWindow();
    type(window, `mcpkit tools call book-table --arg date=2026-12-24 --arg time=20:00 ${quickstart}`, 'Enter');
    await waitForScreen(window, 'The server asks: A table on 2026-12-24 at 20:00');
    await waitForScreen(window, '? Name for the booking');
    type(window, 'Ada Lovelace', 'Enter');
    await waitForScreen(window, '? People');
    type(window, '4', 'Enter');
    await waitForScreen(window, 'Booked: Ada Lovelace, 4 people, 2026-12-24 at 20:00.');

    type(window, 'clear', 'Enter');
    type(
      window,
      `mcpkit tools call prepare-order --arg 'dishes=["carbonara","tiramisu","margherita"]' ${quickstart}`,
      'Enter',
    );
    const shown = await waitForScreen(window, 'Order ready: carbonara, tiramisu, margherita');
    expect(shown).toMatch(/progress \[█+\] 3\/3 Pizza margherita is ready/);
  });

  it('HTTP: a prompted argument, a progress bar, an elicitation and a sampling answer against the everything-server', async () => {
    const window = openWindow();
    type(window, `mcpkit tools call test_elicitation --url ${everythingUrl}`, 'Enter');
    await waitForScreen(window, '? message');
    type(window, 'Who are you?', 'Enter');
    await waitForScreen(window, 'The server asks: Who are you?');
    await waitForScreen(window, "? username (User's response)");
    type(window, 'ada', 'Enter');
    await waitForScreen(window, "? email (User's email address)");
    type(window, 'ada@example.com', 'Enter');
    await waitForScreen(window, 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}');

    type(window, 'clear', 'Enter');
    type(window, `mcpkit tools call test_tool_with_progress --url ${everythingUrl}`, 'Enter');
    const progress = await waitForScreen(window, 'Tool with progress executed successfully');
    expect(progress).toMatch(/progress \[█+\] 100\/100/);

    type(window, 'clear', 'Enter');
    type(window, `mcpkit tools call test_sampling --arg prompt='Say hi' --url ${everythingUrl}`, 'Enter');
    await waitForScreen(window, 'user: Say hi');
    await waitForScreen(window, '? Your answer');
    type(window, 'hi from a human', 'Enter');
    await waitForScreen(window, 'LLM response: hi from a human');
  });
});
