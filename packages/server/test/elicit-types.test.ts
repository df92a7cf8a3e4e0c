// Issue 31: `ctx.elicit` answers were typed `{ [name: string]: ElicitFieldValue }` whatever the form asked, while tool
// arguments are inferred from `inputSchema`. A form's answer is now typed from its `requestedSchema`.
import type { ElicitResult } from '@mcpkit/protocol';
import { expectTypeOf, it } from 'vitest';
import type { ServerRequestContext } from '../src/session/context';

declare const ctx: ServerRequestContext;

it('a form answer is typed from its requestedSchema: required fields, optional ones, enums', async () => {
  const ask = () =>
    ctx.elicit({
      message: 'Deploy where?',
      requestedSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', enum: ['eu', 'us'] },
          replicas: { type: 'integer' },
          confirm: { type: 'boolean' },
        },
        required: ['region', 'confirm'],
      },
    });
  type Content = NonNullable<Awaited<ReturnType<typeof ask>>['content']>;
  expectTypeOf<Content>().toEqualTypeOf<{ region: 'eu' | 'us'; confirm: boolean; replicas?: number }>();
  expectTypeOf<Awaited<ReturnType<typeof ask>>['action']>().toEqualTypeOf<'accept' | 'decline' | 'cancel'>();
});

it('a URL-mode ask, or a schema not known until run time, keeps the plain ElicitResult', () => {
  const url = () => ctx.elicit({ mode: 'url', message: 'Sign in', url: 'https://example.com/login' });
  expectTypeOf<Awaited<ReturnType<typeof url>>>().toEqualTypeOf<ElicitResult>();
});
