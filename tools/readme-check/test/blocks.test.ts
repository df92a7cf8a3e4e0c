import { describe, expect, it } from 'vitest';
import { codeBlocks, describeBlock } from '../src/blocks';

describe('codeBlocks', () => {
  it('reads language, flags, file name, line and heading; indented fences lose their indentation', () => {
    const markdown = [
      '# Title',
      '## Part',
      '```ts run file=a.ts',
      'console.log(1);',
      '```',
      '- item',
      '  ```sh',
      '  npm test',
      '  ```',
      'Inline ```` ```ts ```` code is not a fence.',
      '````md',
      '```ts',
      'inner',
      '```',
      '````',
    ].join('\n');
    const blocks = codeBlocks('x/README.md', markdown);
    expect(blocks.map((block) => [block.language, [...block.flags], block.file, block.line, block.heading])).toEqual([
      ['ts', ['run', 'file=a.ts'], 'a.ts', 3, 'Part'],
      ['sh', [], undefined, 7, 'Part'],
      ['md', [], undefined, 11, 'Part'],
    ]);
    expect(blocks[1]?.code).toBe('npm test\n');
    expect(blocks[2]?.code).toBe('```ts\ninner\n```\n');
    expect(describeBlock(blocks[0]!)).toBe('x/README.md block 1 (line 3, ```ts run file=a.ts, under "Part")');
  });
});
