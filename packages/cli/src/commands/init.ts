import { input, select } from '@inquirer/prompts';
import type { Command } from 'commander';
import { CliError } from '../exit-codes';
import { scaffold } from '../init/scaffold';
import { TEMPLATES } from '../init/templates';
import { note } from '../io';
import { printJson } from '../output';
import type { TalkContext } from './talk';

/** `mcpkit init [template] [folder]`: a new project from a sample app; asks in a terminal what was not given. */
export function registerInit(program: Command, context: TalkContext): void {
  const { io } = context;
  program
    .command('init')
    .description(`Start a project from a template: ${TEMPLATES.map((template) => template.name).join(', ')}`)
    .argument('[template]', 'the template (asked for in a terminal)')
    .argument('[folder]', 'the new folder (asked for in a terminal; default: my-mcp-server)')
    .option(
      '--from <folder>',
      'use the mcpkit packages packed in this folder (node scripts/pack.mjs) instead of the registry',
    )
    .option('--list', 'list the templates')
    .action(
      async (templateName: string | undefined, folderName: string | undefined, _options: unknown, command: Command) => {
        const options = command.optsWithGlobals() as { from?: string; list?: boolean; json?: boolean };
        if (options.list) {
          if (options.json)
            printJson(
              io,
              TEMPLATES.map(({ name, description }) => ({ name, description })),
            );
          else
            io.stdout.write(
              `${TEMPLATES.map((template) => `${template.name.padEnd(14)}${template.description}`).join('\n')}\n`,
            );
          return;
        }
        const prompts = { input: io.stdin, output: io.stderr };
        const interactive = io.interactive && !options.json;
        let name = templateName;
        if (name === undefined) {
          if (!interactive)
            throw new CliError('usage', `Name a template: ${TEMPLATES.map((template) => template.name).join(', ')}`);
          name = await select(
            {
              message: 'Template',
              choices: TEMPLATES.map((template) => ({
                value: template.name,
                name: `${template.name} — ${template.description}`,
              })),
            },
            prompts,
          );
        }
        const template = TEMPLATES.find((entry) => entry.name === name);
        if (template === undefined) {
          throw new CliError(
            'usage',
            `No template named "${name}" (one of ${TEMPLATES.map((entry) => entry.name).join(', ')})`,
          );
        }
        let folder = folderName;
        if (folder === undefined) {
          folder = interactive
            ? await input({ message: 'Folder', default: 'my-mcp-server', required: true }, prompts)
            : 'my-mcp-server';
        }
        const files = scaffold({ template, folder, from: options.from });
        if (options.json) {
          printJson(io, { template: template.name, folder, files });
          return;
        }
        note(io, `Created ${folder} from the ${template.name} template. Next:`);
        io.stdout.write(`  cd ${folder}\n  npm install\n  npm test\n  npm start\n`);
      },
    );
}
