import { spawn } from 'node:child_process';

/**
 * Opens a URL in the user's browser without a shell (the URL is one argument, never interpreted), or resolves false
 * when there is no display to open it on, so the caller prints it instead.
 */
export async function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (!/^https?:\/\//i.test(url)) return false;
  const command = browserCommand(env);
  if (command === undefined) return false;
  return await new Promise<boolean>((resolve) => {
    const child = spawn(command[0]!, [...command.slice(1), url], { stdio: 'ignore', detached: true, shell: false });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

function browserCommand(env: NodeJS.ProcessEnv): string[] | undefined {
  if (env.MCPKIT_NO_BROWSER) return undefined;
  if (env.BROWSER) return [env.BROWSER];
  if (process.platform === 'darwin') return ['open'];
  // `start` is a cmd built-in; rundll32 opens a URL without one.
  if (process.platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler'];
  return env.DISPLAY || env.WAYLAND_DISPLAY ? ['xdg-open'] : undefined;
}
