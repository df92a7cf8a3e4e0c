import { McpServer } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { SKILLS_EXTENSION_ID, SkillsError, SkillsServer, sha256Digest } from '../src/index';
import { connect, ERAS, FORMS_MD, LOGO, type Loose, MODERN, PDF_SKILL_MD, sampleSkills, skillServer } from './helpers';

const PDF = 'skill://pdf-processing/SKILL.md';
const REFUNDS = 'skill://acme/billing/refunds/SKILL.md';

/** The JSON-RPC error a request ended with. */
async function errorOf(promise: Promise<unknown>): Promise<Loose> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'the request should have failed').toBeDefined();
  return error as Loose;
}

describe.each(ERAS)('SkillsServer, %s', (version) => {
  const modern = version === MODERN;

  it('declares the extension inline (directoryRead) with the resources capability', async () => {
    const { mcp } = await skillServer();
    const { client } = await connect(mcp, version);
    const capabilities = client.serverCapabilities as Loose;
    expect(capabilities.extensions[SKILLS_EXTENSION_ID]).toEqual({ directoryRead: true });
    expect(capabilities.resources).toBeDefined();
  });

  it('skills/list: every entry with digests and sizes, cache hints in 2026-07-28 only', async () => {
    const { mcp } = await skillServer();
    const { client } = await connect(mcp, version);
    const result = await client.request<Loose>('skills/list', {});
    expect(result.skills.map((skill: Loose) => skill.uri)).toEqual([REFUNDS, PDF]);
    const pdf = result.skills[1];
    expect(pdf.frontmatter).toEqual({
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      metadata: { version: '2.1.0' },
    });
    const bytes = new TextEncoder().encode(PDF_SKILL_MD);
    expect(pdf.resources[0]).toEqual({ uri: PDF, digest: await sha256Digest(bytes), size: bytes.length });
    expect(pdf.resources.map((file: Loose) => file.uri)).toEqual([
      PDF,
      'skill://pdf-processing/assets/logo.png',
      'skill://pdf-processing/references/FORMS.md',
      'skill://pdf-processing/templates/invoice.md',
      'skill://pdf-processing/templates/regional/eu-invoice.md',
    ]);
    expect(result.nextCursor).toBeUndefined();
    if (modern) expect(result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    else expect(result.ttlMs).toBeUndefined();
  });

  it('skills/list pages with nextCursor, entries never split; a foreign cursor is -32602', async () => {
    const { mcp } = await skillServer({ pageSize: 1 });
    const { client } = await connect(mcp, version);
    const first = await client.request<Loose>('skills/list', {});
    expect(first.skills.map((skill: Loose) => skill.uri)).toEqual([REFUNDS]);
    const second = await client.request<Loose>('skills/list', { cursor: first.nextCursor });
    expect(second.skills.map((skill: Loose) => skill.uri)).toEqual([PDF]);
    expect(second.nextCursor).toBeUndefined();
    expect((await errorOf(client.request('skills/list', { cursor: 'bogus' }))).code).toBe(-32602);
  });

  it('skills/get: the entry by URI, no cursor; -32602 for a URI that is not a served skill', async () => {
    const { mcp } = await skillServer();
    const { client } = await connect(mcp, version);
    const result = await client.request<Loose>('skills/get', { uri: REFUNDS });
    expect(result.skill).toMatchObject({ uri: REFUNDS, frontmatter: { name: 'refunds', license: 'Apache-2.0' } });
    expect(result.nextCursor).toBeUndefined();
    if (modern) expect(result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    for (const uri of ['skill://nope/SKILL.md', 'skill://pdf-processing/references/FORMS.md']) {
      const error = await errorOf(client.request('skills/get', { uri }));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(uri);
    }
    expect((await errorOf(client.request('skills/get', {}))).code).toBe(-32602);
  });

  it('resources/directory/read: direct children, subfolders as inode/directory, paging, -32602 for a file', async () => {
    const { mcp } = await skillServer({ pageSize: 2 });
    const { client } = await connect(mcp, version);
    const root = 'skill://pdf-processing';
    const first = await client.request<Loose>('resources/directory/read', { uri: root });
    const second = await client.request<Loose>('resources/directory/read', { uri: root, cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    expect([...first.resources, ...second.resources]).toEqual([
      { uri: PDF, name: 'SKILL.md', mimeType: 'text/markdown', size: new TextEncoder().encode(PDF_SKILL_MD).length },
      { uri: `${root}/assets`, name: 'assets', mimeType: 'inode/directory' },
      { uri: `${root}/references`, name: 'references', mimeType: 'inode/directory' },
      { uri: `${root}/templates`, name: 'templates', mimeType: 'inode/directory' },
    ]);
    const templates = await client.request<Loose>('resources/directory/read', { uri: `${root}/templates` });
    expect(templates.resources.map((child: Loose) => child.name)).toEqual(['invoice.md', 'regional']);
    const notDirectory = await errorOf(client.request('resources/directory/read', { uri: PDF }));
    expect(notDirectory).toMatchObject({ code: -32602, message: `${PDF} is not a directory resource` });
    expect((await errorOf(client.request('resources/directory/read', { uri: 'skill://none' }))).code).toBe(-32602);
  });

  it('serves every file with resources/read (text, or a base64 blob), SKILL.md listed with its frontmatter', async () => {
    const { mcp } = await skillServer();
    const { client } = await connect(mcp, version);
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        uri: REFUNDS,
        name: 'refunds',
        description: 'Process refund requests per policy',
        mimeType: 'text/markdown',
        size: expect.any(Number),
      },
      {
        uri: PDF,
        name: 'pdf-processing',
        description: 'Extract, fill, and assemble PDF documents',
        mimeType: 'text/markdown',
        size: expect.any(Number),
      },
    ]);
    const forms = await client.readResource({ uri: 'skill://pdf-processing/references/FORMS.md' });
    expect(forms.contents).toEqual([
      { uri: 'skill://pdf-processing/references/FORMS.md', mimeType: 'text/markdown', text: FORMS_MD },
    ]);
    const logo = await client.readResource({ uri: 'skill://pdf-processing/assets/logo.png' });
    expect(logo.contents).toEqual([
      {
        uri: 'skill://pdf-processing/assets/logo.png',
        mimeType: 'image/png',
        blob: btoa(String.fromCharCode(...LOGO)),
      },
    ]);
    const missing = await errorOf(client.readResource({ uri: 'skill://pdf-processing/nope.md' }));
    expect(missing.code).toBe(modern ? -32602 : -32002);
  });

  it('setSkills replaces the catalog: new entries at once, old cursors refused as stale', async () => {
    const { mcp, skills } = await skillServer({ pageSize: 1 });
    const { client } = await connect(mcp, version);
    const first = await client.request<Loose>('skills/list', {});
    await skills.setSkills(sampleSkills().slice(0, 1));
    expect(skills.skills.map((skill) => skill.uri)).toEqual([PDF]);
    const stale = await errorOf(client.request('skills/list', { cursor: first.nextCursor }));
    expect(stale).toMatchObject({ code: -32602, data: { reason: 'stale' } });
    expect((await client.request<Loose>('skills/list', {})).skills.map((skill: Loose) => skill.uri)).toEqual([PDF]);
  });
});

describe('SkillsServer setup', () => {
  it('without directoryRead: declares {} and resources/directory/read is an unknown method', async () => {
    const { mcp } = await skillServer({ directoryRead: false });
    const { client } = await connect(mcp, MODERN);
    expect((client.serverCapabilities as Loose).extensions[SKILLS_EXTENSION_ID]).toEqual({});
    expect((await errorOf(client.request('resources/directory/read', { uri: 'skill://pdf-processing' }))).code).toBe(
      -32601,
    );
  });

  it("listResources: 'all' lists every file, 'none' nothing (files stay readable)", async () => {
    const all = await connect((await skillServer({ listResources: 'all' })).mcp, MODERN);
    expect((await all.client.listResources()).resources).toHaveLength(7);
    const none = await connect((await skillServer({ listResources: 'none' })).mcp, MODERN);
    expect((await none.client.listResources()).resources).toEqual([]);
    expect((await none.client.readResource({ uri: PDF })).contents[0]).toMatchObject({ text: PDF_SKILL_MD });
  });

  it('a bad initial set rejects ready (served: none) without an unhandled rejection; a bad replacement keeps the old', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    const skills = new SkillsServer(mcp, { skills: [{ files: { 'README.md': 'no manifest' } }] });
    await expect(skills.ready).rejects.toBeInstanceOf(SkillsError);
    const { client } = await connect(mcp, MODERN);
    expect((await client.request<Loose>('skills/list', {})).skills).toEqual([]);
    await skills.setSkills(sampleSkills());
    await expect(
      skills.setSkills([{ path: 'x/y', files: { 'SKILL.md': '---\nname: z\ndescription: d\n---\n' } }]),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_SKILL' });
    expect(skills.skills).toHaveLength(2);
  });

  it('refuses a second SkillsServer on one server, leaving the first intact', async () => {
    const { mcp, skills } = await skillServer();
    expect(() => new SkillsServer(mcp, { templateName: 'more-skills' })).toThrow(
      expect.objectContaining({ code: 'ERR_DUPLICATE_EXTENSION' }),
    );
    const { client } = await connect(mcp, MODERN);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.name)).toEqual([
      'skills',
    ]);
    expect(skills.skills).toHaveLength(2);
  });

  it('overlapping setSkills calls: the last one wins, even when the earlier one finishes later', async () => {
    const { skills } = await skillServer();
    const [one, two] = sampleSkills();
    // The first call has 8 MiB more to hash, so it finishes after the second: it must not overwrite it.
    const slow = { ...one!, files: { ...one!.files, 'big.bin': new Uint8Array(8 * 1024 * 1024) } };
    await Promise.all([skills.setSkills([slow, two!]), skills.setSkills([two!])]);
    expect(skills.skills.map((skill) => skill.uri)).toEqual([REFUNDS]);
  });

  it('completes the path of the skill:// template', async () => {
    const { mcp } = await skillServer();
    const { client } = await connect(mcp, MODERN);
    const result = await client.complete({
      ref: { type: 'ref/resource', uri: 'skill://{+path}' },
      argument: { name: 'path', value: 'pdf-processing/t' },
    });
    expect(result.completion.values).toEqual([
      'pdf-processing/templates/invoice.md',
      'pdf-processing/templates/regional/eu-invoice.md',
    ]);
  });
});
