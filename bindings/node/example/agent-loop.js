'use strict';
// An agent loop in 20 lines: create a session, append the turns, branch, build the context.
const { Store } = require('xsession');

async function main(root) {
  const store = new Store(root);
  const session = store.create(process.cwd());
  const question = session.appendMessage({ role: 'user', content: 'Why does the build fail?' });
  session.appendMessage({ role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5',
                          content: [{ type: 'text', text: 'A missing include.' }] });
  // Go back to the question, leaving a durable summary of the abandoned path.
  session.branchWithSummary(question, 'Tried the missing-include theory.');
  session.appendMessage({ role: 'user', content: 'Check the linker flags instead.' });
  const context = await session.buildContext(); // off the main thread
  for (const m of context.messages) console.log(`${m.role}: ${JSON.stringify(m.content ?? m.summary)}`);
  await session.flush();
  session.close();
  store.close();
}

main(process.argv[2] || `${require('node:os').homedir()}/.xcsh/agent`).catch((err) => {
  console.error(`${err.code}: ${err.message}`);
  process.exitCode = 1;
});
