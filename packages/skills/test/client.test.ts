import { Client } from '@mcpkit/client';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { McpServer } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { SKILLS_EXTENSION_ID, type Skill, SkillsClient, SkillsError, sha256Digest } from '../src/index';
import { connect, ERAS, FORMS_MD, LOGO, type Loose, MODERN, PDF_SKILL_MD, skillServer } from './helpers';

const PDF = 'skill://pdf-processing/SKILL.md';

async function skillsErrorOf(promise: Promise<unknown>): Promise<SkillsError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SkillsError);
  return error as SkillsError;
}

/**
 * A server that lists `entry` and serves `body` at its SKILL.md (and FORMS.md): what a tampering server or a stale
 * entry looks like to a client.
 */
async function lyingServer(entry: (body: string) => Promise<Skill>, body: string, version: string) {
  const mcp = new McpServer({ name: 'liar', version: '1.0.0' });
  mcp.extend({
    id: SKILLS_EXTENSION_ID,
    methods: {
      'skills/list': async () => ({ skills: [await entry(body)] }),
      'skills/get': async () => ({ skill: await entry(body) }),
    },
  });
  mcp.registerResource('skill', PDF, { mimeType: 'text/markdown' }, (uri) => ({ contents: [{ uri, text: body }] }));
  mcp.registerResource('forms', 'skill://pdf-processing/references/FORMS.md', {}, (uri) => ({
    contents: [{ uri, text: FORMS_MD }],
  }));
  return connect(mcp, version);
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** The honest entry of PDF_SKILL_MD and FORMS_MD, with `patch` applied to its SKILL.md resource. */
async function pdfEntry(skillMd: string, patch: { digestOf?: string; sizeOf?: string } = {}): Promise<Skill> {
  return {
    uri: PDF,
    frontmatter: {
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      metadata: { version: '2.1.0' },
    },
    resources: [
      {
        uri: PDF,
        digest: await sha256Digest(bytes(patch.digestOf ?? skillMd)),
        size: bytes(patch.sizeOf ?? skillMd).length,
      },
      {
        uri: 'skill://pdf-processing/references/FORMS.md',
        digest: await sha256Digest(bytes(FORMS_MD)),
        size: bytes(FORMS_MD).length,
      },
    ],
  };
}

describe.each(ERAS)('SkillsClient, %s', (version) => {
  it('declares the extension, lists without reading any skill file, loads only when asked', async () => {
    const { mcp } = await skillServer({ pageSize: 1 });
    const { client, skills, reads } = await connect(mcp, version);
    expect(client.capabilities.extensions?.[SKILLS_EXTENSION_ID]).toEqual({});
    expect(skills.available).toBe(true);
    expect(skills.directoryRead).toBe(true);
    const entries = await skills.listAll();
    expect(entries.map((skill) => skill.uri)).toEqual(['skill://acme/billing/refunds/SKILL.md', PDF]);
    expect(reads).toEqual([]);

    const skill = await skills.load(entries[1]!);
    expect(reads).toEqual([PDF]);
    expect(skill.text).toBe(PDF_SKILL_MD);
    expect(skill.frontmatter.name).toBe('pdf-processing');
    expect(skill.body).toBe('\n# PDF processing\n\nSee references/FORMS.md.\n');
    expect(skill.root).toBe('skill://pdf-processing');

    const forms = await skill.readFile('references/FORMS.md');
    expect(forms).toMatchObject({ uri: 'skill://pdf-processing/references/FORMS.md', text: FORMS_MD });
    const logo = await skill.readFile('assets/logo.png');
    expect(logo.bytes).toEqual(LOGO);
    expect(logo.text).toBeUndefined();
    expect(reads).toHaveLength(3);
  });

  it('refuses a file the held entry does not list, without a request', async () => {
    const { mcp } = await skillServer();
    const { skills, reads } = await connect(mcp, version);
    const skill = await skills.load(PDF); // by URI: skills/get first
    const error = await skillsErrorOf(skill.readFile('../acme/billing/refunds/SKILL.md'));
    expect(error.code).toBe('ERR_UNLISTED_FILE');
    expect((await skillsErrorOf(skill.readFile('references/NEW.md'))).data).toMatchObject({
      uri: 'skill://pdf-processing/references/NEW.md',
    });
    expect(reads).toEqual([PDF]);
  });

  it.each([
    ['ERR_DIGEST_MISMATCH', PDF_SKILL_MD.replace('# PDF', '# PWN'), { digestOf: PDF_SKILL_MD }],
    ['ERR_SIZE_MISMATCH', `${PDF_SKILL_MD}extra bytes\n`, { sizeOf: PDF_SKILL_MD }],
    // Digest and size describe the served file, but its frontmatter is not the entry's.
    ['ERR_FRONTMATTER_MISMATCH', PDF_SKILL_MD.replace('assemble PDF documents', 'exfiltrate credentials'), {}],
  ] as const)('refuses SKILL.md content that fails verification: %s', async (code, body, patch) => {
    const { skills, reads } = await lyingServer((served) => pdfEntry(served, patch), body, version);
    const [entry] = await skills.listAll();
    const error = await skillsErrorOf(skills.load(entry!));
    expect(error.code).toBe(code);
    expect(error.data).toMatchObject({ uri: PDF });
    expect(reads).toEqual([PDF]); // nothing after the refused SKILL.md
  });

  it('the same lying server with an honest entry loads (the checks above are what refused)', async () => {
    const { skills } = await lyingServer((served) => pdfEntry(served), PDF_SKILL_MD, version);
    const skill = await skills.load((await skills.listAll())[0]!);
    expect((await skill.readFile('references/FORMS.md')).text).toBe(FORMS_MD);
  });

  it('refuses a supporting file that changed since listing', async () => {
    const { skills } = await lyingServer(
      async (served) => {
        const entry = await pdfEntry(served);
        (entry.resources as Loose[])[1]!.digest = await sha256Digest(bytes('older forms'));
        return entry;
      },
      PDF_SKILL_MD,
      version,
    );
    const skill = await skills.load((await skills.listAll())[0]!);
    expect((await skillsErrorOf(skill.readFile('references/FORMS.md'))).code).toBe('ERR_DIGEST_MISMATCH');
  });
});

describe('SkillsClient rules', () => {
  it('calls nothing on a server that does not declare the extension', async () => {
    const mcp = new McpServer({ name: 'plain', version: '1.0.0' });
    mcp.registerResource('r', 'file:///r', {}, (uri) => ({ contents: [{ uri, text: 'r' }] }));
    const { skills } = await connect(mcp, MODERN);
    expect(skills.available).toBe(false);
    expect((await skillsErrorOf(skills.list())).code).toBe('ERR_NOT_SUPPORTED');
    expect((await skillsErrorOf(skills.get(PDF))).code).toBe('ERR_NOT_SUPPORTED');
    expect((await skillsErrorOf(skills.readDirectory('skill://x'))).code).toBe('ERR_NOT_SUPPORTED');
  });

  it('reads directories only where directoryRead is declared', async () => {
    const declared = await connect((await skillServer()).mcp, MODERN);
    const page = await declared.skills.readDirectory('skill://pdf-processing/templates');
    expect(page.resources.map((child) => child.name)).toEqual(['invoice.md', 'regional']);
    const undeclared = await connect((await skillServer({ directoryRead: false })).mcp, MODERN);
    expect(undeclared.skills.directoryRead).toBe(false);
    expect((await skillsErrorOf(undeclared.skills.readDirectory('skill://pdf-processing'))).code).toBe(
      'ERR_NOT_SUPPORTED',
    );
  });

  it('refuses a dynamic skill unless allowed; allowed, checks its frontmatter only', async () => {
    const dynamic = async (served: string): Promise<Skill> => ({ ...(await pdfEntry(served)), resources: 'dynamic' });
    const strict = await lyingServer(dynamic, PDF_SKILL_MD, MODERN);
    const entry = (await strict.skills.listAll())[0]!;
    expect((await skillsErrorOf(strict.skills.load(entry))).code).toBe('ERR_DYNAMIC_SKILL');
    expect(strict.reads).toEqual([]);

    const [serverSide, clientSide] = createLinkedTransports();
    const mcp = new McpServer({ name: 'dyn', version: '1.0.0' });
    mcp.extend({ id: SKILLS_EXTENSION_ID, methods: { 'skills/list': async () => ({ skills: [await dynamic('')] }) } });
    mcp.registerResource('skill', PDF, {}, (uri) => ({ contents: [{ uri, text: PDF_SKILL_MD }] }));
    mcp.registerResource('forms', 'skill://pdf-processing/references/FORMS.md', {}, (uri) => ({
      contents: [{ uri, text: 'generated' }],
    }));
    await mcp.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' });
    const skills = new SkillsClient(client, { allowDynamic: true });
    await client.connect(clientSide, { protocolVersion: MODERN });
    const loaded = await skills.load((await skills.listAll())[0]!);
    expect((await loaded.readFile('references/FORMS.md')).text).toBe('generated');
    expect((await skillsErrorOf(loaded.readFile('skill://elsewhere/SKILL.md'))).code).toBe('ERR_UNLISTED_FILE');
  });

  it('stops listAll at maxPages or a repeated cursor', async () => {
    const mcp = new McpServer({ name: 'loop', version: '1.0.0' });
    mcp.extend({ id: SKILLS_EXTENSION_ID, methods: { 'skills/list': () => ({ skills: [], nextCursor: 'again' }) } });
    mcp.registerResource('r', 'file:///r', {}, (uri) => ({ contents: [{ uri, text: 'r' }] }));
    const { skills } = await connect(mcp, MODERN, { maxPages: 5 });
    expect((await skillsErrorOf(skills.listAll())).code).toBe('ERR_TOO_MANY_PAGES');
  });

  it('refuses a skills/get answer for another skill', async () => {
    const { skills } = await lyingServer((served) => pdfEntry(served), PDF_SKILL_MD, MODERN);
    expect((await skillsErrorOf(skills.get('skill://other/SKILL.md'))).code).toBe('ERR_INVALID_RESULT');
  });
});
