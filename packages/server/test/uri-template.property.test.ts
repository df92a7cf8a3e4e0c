import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UriTemplate, UriTemplateError } from '../src/index';

// Property-based test of URI templates, whose `match` reads URIs a client sends (`resources/read`): any template
// string either builds or fails with UriTemplateError; matching any URI never throws and stays fast (the pattern is a
// regular expression: no input may make it backtrack for long); what a template expands to, it matches again.
// Small by default so the suite stays fast; FUZZ_RUNS=20000 runs a long one.

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** A match over a few kilobytes must take well under this (a catastrophic backtrack takes seconds). */
const MATCH_BUDGET_MS = 100;

const OPERATORS = ['', '+', '#', '.', '/', ';', '?', '&'];
const varName = fc.string({ unit: fc.constantFrom(...'abcxyz_'), minLength: 1, maxLength: 4 });
const expression = fc
  .tuple(
    fc.constantFrom(...OPERATORS),
    fc.array(fc.tuple(varName, fc.constantFrom('', '*', ':3')), { minLength: 1, maxLength: 3 }),
  )
  .map(([operator, specs]) => `{${operator}${specs.map(([name, modifier]) => `${name}${modifier}`).join(',')}}`);
const literal = fc.string({ unit: fc.constantFrom(...'abc/:-.?=&'), maxLength: 5 });
const validTemplate = fc
  .array(fc.oneof(expression, literal), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''));
const anyTemplate = fc.oneof(
  validTemplate,
  fc.string({ maxLength: 30 }),
  fc.string({ unit: fc.constantFrom(...'{}+#./;?&,*:3ab'), maxLength: 20 }),
);
const uri = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: fc.constantFrom(...'ab/,.;=&?%2F'), maxLength: 4_000 }),
);

function timedMatch(template: UriTemplate, text: string): number {
  const started = performance.now();
  template.match(text);
  return performance.now() - started;
}

describe('UriTemplate (property-based)', () => {
  it('builds or refuses with UriTemplateError; matching any URI never throws and stays fast', () => {
    fc.assert(
      fc.property(anyTemplate, fc.array(uri, { maxLength: 4 }), (source, uris) => {
        let template: UriTemplate;
        try {
          template = new UriTemplate(source);
        } catch (error) {
          expect(error).toBeInstanceOf(UriTemplateError);
          return;
        }
        for (const text of uris) expect(timedMatch(template, text)).toBeLessThan(MATCH_BUDGET_MS);
      }),
      { numRuns: RUNS },
    );
  });

  it('matches what it expands (simple string variables)', () => {
    fc.assert(
      fc.property(
        fc.array(varName, { minLength: 1, maxLength: 3 }).map((names) => [...new Set(names)]),
        fc.constantFrom('', '/', '.', '?'),
        fc.string({ unit: fc.constantFrom(...'abcXYZ019-_~'), minLength: 1, maxLength: 8 }),
        (names, operator, value) => {
          const template = new UriTemplate(`res://x${names.map((name) => `{${operator}${name}}`).join('/')}`);
          const variables = Object.fromEntries(names.map((name) => [name, value]));
          expect(template.match(template.expand(variables))).toEqual(variables);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
