import { Client } from '@mcpkit/client';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { afterAll, describe, expect, it } from 'vitest';
import { SkillsClient } from '../src/index';
import { ERAS, FORMS_MD, skillServer } from './helpers';

// The whole extension over Streamable HTTP on a socket (127.0.0.1): 2025-11-25 with a session, 2026-07-28 stateless.

describe('skills over Streamable HTTP', async () => {
  const { mcp } = await skillServer();
  const http = await listen(createStreamableHttpHandler(mcp), { port: 0, host: '127.0.0.1', path: '/mcp' });
  afterAll(() => http.close());

  it.each(ERAS)('%s: lists, loads with verification, reads a file and a directory', async (version) => {
    const client = new Client({ name: 'http-skills', version: '1.0.0' });
    const skills = new SkillsClient(client);
    await client.connect(new StreamableHttpClientTransport(http.url), { protocolVersion: version });
    try {
      const entries = await skills.listAll();
      const pdf = entries.find((entry) => entry.frontmatter.name === 'pdf-processing')!;
      const skill = await skills.load(pdf);
      expect((await skill.readFile('references/FORMS.md')).text).toBe(FORMS_MD);
      const root = await skills.readDirectory(skill.root);
      expect(root.resources.map((child) => child.name)).toEqual(['SKILL.md', 'assets', 'references', 'templates']);
    } finally {
      await client.close();
    }
  });
});
