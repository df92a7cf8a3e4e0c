import { Client } from '@mcpkit/client';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { McpServer } from '@mcpkit/server';
import { skills as clientSkills } from '../src/client/index';
import type { SkillDefinition, SkillsClientOptions, SkillsServerOptions } from '../src/index';
import { skills as serverSkills } from '../src/server/index';

// biome-ignore lint/suspicious/noExplicitAny: tests read deep into wire objects
export type Loose = Record<string, any>;

export const LEGACY = '2025-11-25';
export const MODERN = '2026-07-28';
export const ERAS = [LEGACY, MODERN] as const;

export const PDF_SKILL_MD =
  '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: "2.1.0"\n---\n\n# PDF processing\n\nSee references/FORMS.md.\n';
export const FORMS_MD = '# Forms\n\nFill them in.\n';
/** Four bytes that are not UTF-8: served as a base64 blob. */
export const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

/** Two skills: pdf-processing (a reference, a template folder with a subfolder, a binary) and acme/billing/refunds. */
export function sampleSkills(): SkillDefinition[] {
  return [
    {
      files: {
        'SKILL.md': PDF_SKILL_MD,
        'references/FORMS.md': FORMS_MD,
        'templates/invoice.md': 'Invoice\n',
        'templates/regional/eu-invoice.md': 'EU invoice\n',
        'assets/logo.png': LOGO,
      },
    },
    {
      path: 'acme/billing/refunds',
      files: {
        'SKILL.md':
          '---\nname: refunds\ndescription: Process refund requests per policy\nlicense: Apache-2.0\n---\nBody\n',
        'examples/email.md': 'Dear customer\n',
      },
    },
  ];
}

/** An McpServer with a SkillsServer serving `skills` (the sample ones by default). */
export async function skillServer(options: SkillsServerOptions = {}) {
  const mcp = new McpServer({ name: 'skills-test', version: '1.0.0' });
  // The shape every user writes: the extension installed through the public `extend`.
  const skills = mcp.extend(serverSkills({ skills: sampleSkills(), ...options }));
  await skills.ready;
  return { mcp, skills };
}

/** Connects a client with a SkillsClient to `mcp` in memory; `reads` lists every resources/read the server saw. */
export async function connect(mcp: McpServer, version: string, options: SkillsClientOptions = {}) {
  const reads: string[] = [];
  mcp.server.use('resources/read', async (ctx, next) => {
    reads.push(String((ctx.params as Loose | undefined)?.uri));
    return next();
  });
  const [serverSide, clientSide] = createLinkedTransports();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'skills-test-client', version: '1.0.0' });
  const skills = client.extend(clientSkills(options));
  await client.connect(clientSide, { protocolVersion: version });
  return { client, skills, reads };
}
