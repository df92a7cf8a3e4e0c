import type { McpServer } from '@mcpkit/server';

// The tools and the prompt the suite's `input-required-result-*` scenarios call (2026-07-28 multi round-trip requests,
// SEP-2322). Each names its questions with the keys the scenario expects (`ctx.elicit(params, { key })`,
// `ctx.ask({ name: request })`); the server turns them into `input_required` results with a signed `requestState` and
// replays the handler with the answers. The same code asks through server→client requests in the legacy era.

const nameQuestion = (message: string) => ({
  message,
  requestedSchema: {
    type: 'object' as const,
    properties: { name: { type: 'string' as const } },
    required: ['name'],
  },
});

const confirmQuestion = {
  message: 'Please confirm',
  requestedSchema: {
    type: 'object' as const,
    properties: { ok: { type: 'boolean' as const } },
    required: ['ok'],
  },
};

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** Text of a sampling answer's content (one block or an array of blocks). */
function sampledText(content: unknown): string {
  const first = (Array.isArray(content) ? content[0] : content) as { text?: unknown } | undefined;
  return typeof first?.text === 'string' ? first.text : JSON.stringify(content);
}

/** Registers the `test_input_required_result_*` tools and the `test_input_required_result_prompt` prompt. */
export function registerInputRequiredScenarios(server: McpServer): void {
  // input-required-result-basic-elicitation, -missing-input-response, -result-type, -ignore-extra-params,
  // -validate-input: one elicitation named user_name.
  server.registerTool(
    'test_input_required_result_elicitation',
    { description: 'Asks for the user name (input request user_name)' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(nameQuestion('What is your name?'), { key: 'user_name' });
      return text(`Hello, ${String(answer.content?.name ?? 'stranger')}!`);
    },
  );

  // input-required-result-basic-sampling
  server.registerTool(
    'test_input_required_result_sampling',
    { description: 'Asks the client model a question (input request capital_question)' },
    async (_args, ctx) => {
      const answer = await ctx.createMessage(
        {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        },
        { key: 'capital_question' },
      );
      return text(`The model said: ${sampledText(answer.content)}`);
    },
  );

  // input-required-result-basic-list-roots
  server.registerTool(
    'test_input_required_result_list_roots',
    { description: "Asks for the client's roots (input request client_roots)" },
    async (_args, ctx) => {
      const { roots } = await ctx.listRoots({}, { key: 'client_roots' });
      return text(`Roots: ${roots.map((root) => root.uri).join(', ') || 'none'}`);
    },
  );

  // input-required-result-request-state: the answer only arrives with the requestState the server signed, and the
  // server checked it (verified signature, method, params digest, single use) before the handler saw the answer.
  server.registerTool(
    'test_input_required_result_request_state',
    { description: 'Asks for a confirmation; answers state-ok once the requestState round-tripped' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(confirmQuestion, { key: 'confirm' });
      return text(`state-ok: confirmed=${String(answer.content?.ok)}`);
    },
  );

  // input-required-result-multiple-input-requests: three named requests of three kinds in one round.
  server.registerTool(
    'test_input_required_result_multiple_inputs',
    { description: 'Asks for a name, a greeting and the roots at once' },
    async (_args, ctx) => {
      const { user_name, greeting, client_roots } = await ctx.ask({
        user_name: { method: 'elicitation/create', params: nameQuestion('What is your name?') },
        greeting: {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
            maxTokens: 50,
          },
        },
        client_roots: { method: 'roots/list', params: {} },
      });
      return text(
        `${sampledText(greeting.content)} ${String(user_name.content?.name)} (${client_roots.roots.length} roots)`,
      );
    },
  );

  // input-required-result-multi-round: a second question only once the first is answered.
  server.registerTool(
    'test_input_required_result_multi_round',
    { description: 'Asks two questions, one round each' },
    async (_args, ctx) => {
      const step1 = await ctx.elicit(nameQuestion('Step 1: What is your name?'), { key: 'step1' });
      const step2 = await ctx.elicit(
        {
          message: 'Step 2: What is your favorite color?',
          requestedSchema: {
            type: 'object',
            properties: { color: { type: 'string' } },
            required: ['color'],
          },
        },
        { key: 'step2' },
      );
      return text(`${String(step1.content?.name)} likes ${String(step2.content?.color)}`);
    },
  );

  // input-required-result-tampered-state: a changed requestState fails its HMAC check (-32602).
  server.registerTool(
    'test_input_required_result_tampered_state',
    { description: 'Asks for a confirmation with an integrity-protected requestState' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(confirmQuestion, { key: 'confirm' });
      return text(`confirmed=${String(answer.content?.ok)}`);
    },
  );

  // input-required-result-capability-check: only asks what this request's client capabilities allow.
  server.registerTool(
    'test_input_required_result_capabilities',
    { description: 'Asks only for what the client declared (elicitation, sampling)' },
    async (_args, ctx) => {
      const capabilities = ctx.clientCapabilities;
      const answers = await ctx.ask({
        ...(capabilities.elicitation !== undefined && {
          user_name: { method: 'elicitation/create' as const, params: nameQuestion('What is your name?') },
        }),
        ...(capabilities.sampling !== undefined && {
          greeting: {
            method: 'sampling/createMessage' as const,
            params: {
              messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Generate a greeting' } }],
              maxTokens: 50,
            },
          },
        }),
      });
      return text(`Answered: ${Object.keys(answers).join(', ') || 'nothing to ask'}`);
    },
  );

  // input-required-result-non-tool-request: prompts/get may need input too.
  server.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'A prompt that asks for its context first (input request user_context)' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'What context should the prompt use?',
          requestedSchema: {
            type: 'object',
            properties: { context: { type: 'string' } },
            required: ['context'],
          },
        },
        { key: 'user_context' },
      );
      return {
        messages: [{ role: 'user', content: { type: 'text', text: `Context: ${String(answer.content?.context)}` } }],
      };
    },
  );
}
