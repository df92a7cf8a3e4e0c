// The form view: prefilled from the tool's input, saved through `save_note`, a tool only views may call (the model
// never sees it); the saved note is also handed to the model as context for its next turn.
import { AppView } from '@mcpkit/apps/view';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const view = new AppView({ name: 'note-form', version: '1.0.0' });

view.ontoolinput = ({ arguments: args }) => {
  if (typeof args.title === 'string') $<HTMLInputElement>('note-title').value = args.title;
};
$('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const title = $<HTMLInputElement>('note-title').value;
  const text = $<HTMLTextAreaElement>('note-text').value;
  try {
    const result = await view.callServerTool({ name: 'save_note', arguments: { title, text } });
    const saved = result.content.find((block) => block.type === 'text') as { text?: string } | undefined;
    $('status').textContent = saved?.text ?? 'saved';
    await view.updateModelContext({ content: [{ type: 'text', text: `The user saved the note "${title}".` }] }).catch(
      () => undefined, // a host may not take model context; the note is saved either way
    );
  } catch (error) {
    $('status').textContent = `save failed: ${(error as Error).message}`;
  }
});

await view.connect();
$('status').textContent = 'ready';
