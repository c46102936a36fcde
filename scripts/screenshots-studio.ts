import type { Page } from 'playwright-core';
import { startModelServer } from '../test/model-server.js';
import type { ApiCall } from './screenshots-widget.js';

/** The customers' questions no article answers yet: what the knowledge gaps page groups. */
const UNANSWERED = [
  { title: 'Badge reader', description: 'Can I release print jobs with my office badge instead of the app?' },
  { title: 'Badge printing', description: 'How do I release print jobs with my office badge?' },
  { title: 'Toner', description: 'Does Lumen order toner by itself when a printer runs low?' },
];

/**
 * The knowledge and AI studio pages of the README (issue 36), as the demo organization's admin:
 * the article editor on the desktop app guide, the playground of an agent answering from the help
 * center with its tool call shown, and the knowledge gaps of that agent after it handed off the
 * tickets whose questions no article answers, all against a model server on loopback.
 */
export async function shootStudio(
  origin: string,
  api: ApiCall,
  helpCenter: { _id: string; slug: string },
  shoot: (name: string, page: Page) => Promise<void>,
  signIn: () => Promise<Page>,
): Promise<void> {
  const page = await signIn();
  const model = await startModelServer();
  try {
    const articles = await api<{ _id: string; title: string }[]>('GET', `/articles?helpCenterId=${helpCenter._id}`);
    const guide = articles.find((article) => article.title.startsWith('Installing the Lumen desktop app'));
    if (!guide) {
      throw new Error('the desktop app guide is missing (screenshots-help-center.ts writes it)');
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${origin}/app/knowledge/${helpCenter._id}/articles/${guide._id}`);
    await page.getByRole('button', { name: 'Preview' }).waitFor();
    await shoot('knowledge-editor', page);

    const provider = await api<{ id: string }>('POST', '/api/v1/model-providers', {
      name: 'Studio screenshots model',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-screenshots',
      default_model: 'screenshots-model',
    });
    const agent = await api<{ id: string }>('POST', '/api/v1/agents', {
      name: 'Lumen desk assistant',
      configuration: {
        model_provider_id: provider.id,
        instructions: 'Answer from the help center; hand off what it does not cover.',
      },
    });
    await api('POST', `/api/v1/agents/${agent.id}/tools`, {
      agent_id: agent.id,
      tool_name: 'search_knowledge_base',
      tool_type: 'built_in',
      is_enabled: true,
    });

    model.script(
      { toolCalls: [{ name: 'search_knowledge_base', arguments: { query: 'desktop app install' } }] },
      {
        text: 'Download the installer from Settings → Apps, run it with the defaults, and sign in with your Lumen account.',
        chunkDelayMs: 5,
      },
    );
    await page.goto(`${origin}/app/agents/${agent.id}/playground`);
    await page.getByRole('textbox', { name: 'Message' }).fill('How do I install the desktop app?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('listitem', { name: 'Tool call search_knowledge_base' })
      .getByRole('figure', { name: 'Result' })
      .waitFor();
    await page.getByText('Answered').waitFor();
    await shoot('agents-playground', page);

    const teams = await api<{ id: string; name: string }[]>('GET', '/v1/teams');
    const support = teams.find((team) => team.name === 'Support');
    if (!support) {
      throw new Error('the demo organization has no Support team');
    }
    await api('PATCH', `/v1/teams/${support.id}/configurations`, { aiAgentId: agent.id, aiAgentMode: 'auto' });
    const handedOff = async () =>
      (await api<{ count: number }[]>('GET', `/api/v1/agents/${agent.id}/knowledge-gaps`)).reduce(
        (sum, gap) => sum + gap.count,
        0,
      );
    for (const [index, question] of UNANSWERED.entries()) {
      model.script(
        { toolCalls: [{ name: 'search_knowledge_base', arguments: { query: question.description } }] },
        { text: 'HANDOFF' },
      );
      await api('POST', '/v1/tickets', {
        ...question,
        requestorEmail: 'dana@northwind.example',
        teamId: support.id,
        performRouting: false,
      });
      await waitFor(async () => (await handedOff()) > index);
    }
    await page.goto(`${origin}/app/agents/${agent.id}/knowledge-gaps`);
    await page.getByRole('link', { name: 'Write an article' }).first().waitFor();
    await shoot('knowledge-gaps', page);
    // Back to the Support team as the demo left it.
    await api('PATCH', `/v1/teams/${support.id}/configurations`, { aiAgentId: null, aiAgentMode: 'off' });
  } finally {
    await page.context().close();
    await model.close();
  }
}

async function waitFor(holds: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await holds()) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the ticket agent did not answer');
}
