import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../src/init/templates';
import { runCli } from './run-cli';

const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-init-'));

describe('mcpkit init', () => {
  it.each(TEMPLATES.map((template) => template.name))(
    '%s: a standalone project (package.json, tsconfig, a test, a README)',
    async (name) => {
      const folder = join(scratch, name);
      const result = await runCli(['init', name, folder, '--json']);
      expect(result.code).toBe(0);
      expect(result.json()).toMatchObject({ template: name, folder });
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
      expect(manifest).toMatchObject({ name, private: true, type: 'module', scripts: { test: 'vitest run' } });
      // mcpkit packages are ordinary dependencies; nothing of the workspace is left.
      expect(JSON.stringify(manifest)).not.toContain('workspace:');
      expect(JSON.stringify(manifest.scripts)).not.toContain('@mcpkit/source');
      expect(Object.keys(manifest.dependencies).some((dep) => dep.startsWith('@mcpkit/'))).toBe(true);
      for (const file of ['tsconfig.json', 'README.md', 'test/server.test.ts'])
        expect(existsSync(join(folder, file))).toBe(true);
      expect(JSON.parse(readFileSync(join(folder, 'tsconfig.json'), 'utf8')).extends).toBeUndefined();
    },
  );

  it('--from points the mcpkit packages, and what they depend on, at the tarballs', async () => {
    const packs = join(scratch, 'packs');
    const folder = join(scratch, 'from-tarballs');
    await runCli(['init', 'quickstart', join(packs, 'unused'), '--json']); // creates the packs parent folder
    for (const pkg of ['client', 'server', 'transport-stdio', 'protocol', 'jsonrpc-core']) {
      writeFileSync(join(packs, `mcpkit-${pkg}-0.0.0.tgz`), '');
    }
    const result = await runCli(['init', 'quickstart', folder, '--from', packs, '--json']);
    expect(result.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    expect(manifest.dependencies['@mcpkit/server']).toBe(`file:${join(packs, 'mcpkit-server-0.0.0.tgz')}`);
    expect(manifest.overrides['@mcpkit/protocol']).toBe(`file:${join(packs, 'mcpkit-protocol-0.0.0.tgz')}`);
  });

  it('usage errors: an unknown template, a folder that is not empty, no template without a terminal', async () => {
    expect((await runCli(['init', 'nope', join(scratch, 'x')])).code).toBe(2);
    const taken = await runCli(['init', 'quickstart', join(scratch, 'quickstart')]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('exists and is not empty');
    expect((await runCli(['init'])).code).toBe(2);
  });
});
