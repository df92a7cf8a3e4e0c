import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's config folder for mcpkit: `MCPKIT_CONFIG_DIR` when set; else `%APPDATA%\mcpkit` on Windows,
 * `~/Library/Application Support/mcpkit` on macOS, `$XDG_CONFIG_HOME/mcpkit` or `~/.config/mcpkit` elsewhere.
 */
export function configFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCPKIT_CONFIG_DIR) return env.MCPKIT_CONFIG_DIR;
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'mcpkit');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'mcpkit');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'mcpkit');
}
