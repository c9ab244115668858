// The agent loop of examples/c/agent_loop.c, typed: open a store, append a user and an assistant
// message, label the answer, branch back with a summary, build the context and read its messages
// as typed values. No JSON handling of its own: every output arrives as its declared type.
import { Store, XsError, isEntry, type AgentMessage, type Context, type Label } from 'xsession';

export async function agentLoop(root: string, cwd: string): Promise<string[]> {
  const store = new Store(root);
  try {
    const session = store.create(cwd);
    try {
      const question = session.appendMessage({ role: 'user', content: 'Why does the build fail?' });
      // The first reply writes the file; the Promise form keeps the event loop free meanwhile.
      const answer = await session.appendMessageAsync({
        role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'A missing include.' }],
      });
      session.appendLabel(answer, 'diagnosis');
      // Go back to the question and leave a durable note about the path we abandon.
      session.branchWithSummary(question, 'Tried the missing-include theory.');
      await session.flush();

      const context: Context = await session.buildContext();
      const lines = context.messages.map((m: AgentMessage) => `${m.role}: ${JSON.stringify(m.content ?? m.summary)}`);
      const labels: Label[] = session.labels();
      lines.push(...labels.map((l) => `label ${l.label} on the ${l.targetId === answer ? 'answer' : 'question'}`));
      const first = session.entry(question);
      if (isEntry(first, 'message')) lines.push(`the question is a root: ${first.parentId === null}`);
      return lines;
    } finally {
      session.close(); // throws the final flush's error, if any (an XsError)
    }
  } catch (err) {
    if (err instanceof XsError) throw new Error(`the agent loop failed: ${err.code} (${err.message})`);
    throw err;
  } finally {
    store.close();
  }
}
