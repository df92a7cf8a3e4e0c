import { describe, expect, it } from 'vitest';
import { getValidators } from '../../src/validation/index.js';
import { officialExamples } from './official-schema.js';

// The 129 official 2026-07-28 examples, each valid against `$defs/<folder name>`, must be accepted; the whole messages
// among them must also pass the message-level validators the engine uses.

const validators = getValidators('2026-07-28');
const examples = officialExamples();

/** Response types of the examples → the method whose result they carry. */
const RESPONSE_METHODS: Readonly<Record<string, string>> = {
  CallToolResultResponse: 'tools/call',
  CompleteResultResponse: 'completion/complete',
  DiscoverResultResponse: 'server/discover',
  GetPromptResultResponse: 'prompts/get',
  ListPromptsResultResponse: 'prompts/list',
  ListResourceTemplatesResultResponse: 'resources/templates/list',
  ListResourcesResultResponse: 'resources/list',
  ListToolsResultResponse: 'tools/list',
  ReadResourceResultResponse: 'resources/read',
  SubscriptionsListenResultResponse: 'subscriptions/listen',
};

describe('official 2026-07-28 examples', () => {
  it('are all present (129 files)', () => {
    expect(examples).toHaveLength(129);
  });

  it.each(examples.map((example) => [`${example.typeName}/${example.file}`, example] as const))(
    '%s is accepted by byType',
    (_name, example) => {
      expect(validators.byType(example.typeName, example.value)).toEqual({ ok: true });
    },
  );

  it('whole requests and notifications pass the message validators', () => {
    let checked = 0;
    for (const { typeName, value } of examples) {
      const method = (value as { method?: unknown }).method;
      if (typeof method !== 'string' || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') continue;
      if (typeName.endsWith('Request')) {
        expect(validators.clientRequest(value), typeName).toEqual({ ok: true });
      } else if (typeName === 'CancelledNotification') {
        expect(validators.clientNotification(value), typeName).toEqual({ ok: true });
        expect(validators.serverNotification(value), typeName).toEqual({ ok: true });
      } else {
        expect(validators.serverNotification(value), typeName).toEqual({ ok: true });
      }
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(18);
  });

  it('results pass result(method) and error responses pass errorResponse', () => {
    let checked = 0;
    for (const { typeName, value } of examples) {
      const method = RESPONSE_METHODS[typeName];
      if (method !== undefined) {
        expect(validators.result(method, (value as { result: unknown }).result), typeName).toEqual({ ok: true });
        checked++;
      }
      if (typeName.endsWith('Error') && (value as { jsonrpc?: unknown }).jsonrpc === '2.0') {
        expect(validators.errorResponse(value), typeName).toEqual({ ok: true });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });

  it('input requests and their responses pass result() of the input method', () => {
    for (const { typeName, value } of examples) {
      if (typeName === 'InputRequiredResult') expect(validators.inputRequiredResult(value)).toEqual({ ok: true });
      if (typeName === 'InputResponses') {
        for (const response of Object.values(value as Record<string, unknown>)) {
          const verdicts = ['sampling/createMessage', 'roots/list', 'elicitation/create'].map(
            (method) => validators.result(method, response).ok,
          );
          expect(verdicts).toContain(true);
        }
      }
    }
  });
});
