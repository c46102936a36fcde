import { createServer } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../free-port.js';
import { closeServer, listen } from '../mcp/authorization-server.js';
import { type ModelRequest, startModelServer, type TestModelServer } from '../model-server.js';
import { type Agent, inviteAgent, openSignedIn, until } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

interface Run {
  id: string;
  status: string;
  error: string | null;
  thread_id: string;
  tool_calls: { tool_name: string; arguments: unknown; result: unknown; error: string | null }[];
}

/** The text of the last tool result the model was sent: what the tool really answered. */
function lastToolResult(request: ModelRequest): string {
  const tool = request.body.messages.filter((message) => message.role === 'tool').at(-1);
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content);
}

const ANSWER = 'Refunds are possible within thirty days of the purchase: see the Refund policy article.';

describe('AI agents: the playground (Chromium, SQLite, a loopback model)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let model: TestModelServer;
  let lead: Agent;
  let providerId: string;

  beforeAll(async () => {
    model = await startModelServer();
    [server, browser] = await Promise.all([startConsoleServer({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' }), launchChromium()]);
    lead = await inviteAgent(server, { name: 'Lena Lead', email: 'lena@acme.test', userType: 'ORG_ADMIN' });
    providerId = (
      await server.call<{ id: string }>('POST', '/api/v1/model-providers', {
        name: 'Loopback',
        kind: 'openai_compatible',
        base_url: model.baseUrl,
        default_model: 'small-1',
      })
    ).id;
    // A published article for the knowledge-base tool to find.
    const helpCenter = await server.call<{ _id: string }>('POST', '/help-centers', { name: 'Acme Help' });
    const collection = await server.call<{ _id: string }>('POST', '/collections', {
      helpCenterId: helpCenter._id,
      name: 'Billing',
    });
    const article = await server.call<{ _id: string }>('POST', '/articles', {
      collectionId: collection._id,
      title: 'Refund policy',
      contentMarkdown: 'Refunds: ask within **thirty** days of the purchase.',
    });
    await server.call('POST', `/articles/${article._id}/publish`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await model?.close();
  });

  async function makeAgent(name: string, provider: string): Promise<string> {
    const agent = await server.call<{ id: string }>('POST', '/api/v1/agents', {
      name,
      configuration: { model_provider_id: provider },
    });
    return agent.id;
  }
  const runsOf = (agentId: string) => server.call<Run[]>('GET', `/api/v1/agents/${agentId}/runs`);
  const send = async (page: Page, text: string) => {
    await page.getByRole('textbox', { name: 'Message' }).fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  };

  it('streams the answer with the knowledge-base call, asks before a tool that needs approval: Reject declines it, Approve runs it', {
    timeout: 60_000,
  }, async () => {
    const agentId = await makeAgent('Refund helper', providerId);
    await server.call('POST', `/api/v1/agents/${agentId}/tools`, {
      agent_id: agentId,
      tool_name: 'search_knowledge_base',
      tool_type: 'built_in',
    });
    const session = await openSignedIn(browser, server, lead);
    const { page } = session;
    await page.goto(`/app/agents/${agentId}`);
    await page.getByRole('link', { name: 'Playground' }).click();
    await page.getByRole('heading', { name: 'Refund helper: playground', level: 1 }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    // The model searches, then answers slowly, so the answer is seen growing.
    model.script({ toolCalls: [{ name: 'search_knowledge_base', arguments: { query: 'refund' } }] }, (request) => {
      expect(lastToolResult(request)).toContain('Refund policy');
      return { text: ANSWER, chunkDelayMs: 150 };
    });
    await send(page, 'Can I get a refund?');
    const conversation = page.getByRole('list', { name: 'Conversation' });
    await conversation.getByRole('listitem', { name: 'You' }).getByText('Can I get a refund?').waitFor();
    const agentTurn = conversation.getByRole('listitem', { name: 'Agent' });
    const call = agentTurn.getByRole('listitem', { name: 'Tool call search_knowledge_base' });
    await call.getByRole('figure', { name: 'Arguments' }).getByText('"query": "refund"').waitFor();
    await call
      .getByRole('figure', { name: 'Result' })
      .getByText(/"title": "Refund policy"/)
      .waitFor();
    await call.getByText(/^Took \d+(\.\d)? m?s$/).waitFor();
    // Part of the answer shows before the whole has arrived.
    await agentTurn.getByText(/^Refunds are possible/).waitFor();
    expect(await agentTurn.getByText(ANSWER).count()).toBe(0);
    await agentTurn.getByText(ANSWER).waitFor();
    await agentTurn.getByText('Answered').waitFor();
    const [run] = await runsOf(agentId);
    expect(run).toMatchObject({
      status: 'succeeded',
      tool_calls: [expect.objectContaining({ tool_name: 'search_knowledge_base' })],
    });

    // A tool that needs approval: the run pauses, the page asks, and Reject declines it.
    const refunds: string[] = [];
    const refundDesk = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        refunds.push(body);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ refunded: JSON.parse(body).order }));
      });
    });
    const refundPort = await listen(refundDesk);
    await server.call('POST', `/api/v1/agents/${agentId}/tools`, {
      agent_id: agentId,
      tool_name: 'issue_refund',
      tool_type: 'external_tool',
      external_tool_connection_id: '3f1c2b9e-8a4d-4c7e-9b1a-2d3e4f5a6b7c',
      require_approval: true,
      configuration: {
        url: `http://127.0.0.1:${refundPort}/refund`,
        parameters: { type: 'object', properties: { order: { type: 'string' } } },
      },
    });
    model.script({ toolCalls: [{ name: 'issue_refund', arguments: { order: 'A-17' } }] });
    await send(page, 'Refund order A-17');
    const second = conversation.getByRole('listitem', { name: 'Agent' }).nth(1);
    const approval = second.getByRole('region', { name: 'Approval needed' });
    await approval.getByText('issue_refund').waitFor();
    await approval.getByText('"order": "A-17"').waitFor();
    await second.getByText('Waiting for approval').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    const asked = model.requests.length;
    await approval.getByRole('button', { name: 'Reject' }).click();
    // Reject ends the run as rejected: the model is not asked again.
    await second.getByText('Rejected', { exact: true }).waitFor();
    await second.getByText('The call was rejected: it did not run, and the run ended without asking the model again.').waitFor();
    expect(model.requests).toHaveLength(asked);
    await second
      .getByRole('listitem', { name: 'Tool call issue_refund' })
      .getByText('Rejected: a person declined this call')
      .waitFor();
    expect(await approval.count()).toBe(0);
    const refused = (await runsOf(agentId)).find((item) => item.id !== run?.id);
    expect(refused?.status).toBe('rejected');
    expect(refused?.tool_calls).toEqual([
      expect.objectContaining({ tool_name: 'issue_refund', error: 'Rejected: a person declined this call' }),
    ]);
    expect(refunds).toEqual([]);

    // Approve: the call runs, and its result shows.
    model.script({ toolCalls: [{ name: 'issue_refund', arguments: { order: 'A-18' } }] }, { text: 'Refund A-18 issued.' });
    await send(page, 'Refund order A-18');
    const third = conversation.getByRole('listitem', { name: 'Agent' }).nth(2);
    await third.getByRole('region', { name: 'Approval needed' }).getByRole('button', { name: 'Approve' }).click();
    await third.getByText('Refund A-18 issued.').waitFor();
    await third
      .getByRole('listitem', { name: 'Tool call issue_refund' })
      .getByRole('figure', { name: 'Result' })
      .getByText(/"refunded": "A-18"/)
      .waitFor();
    expect(refunds).toEqual(['{"order":"A-18"}']);
    await closeServer(refundDesk);

    // Reset: a new thread for the next message.
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('Nothing said yet: ask the agent something.').waitFor();
    model.script({ text: 'Hello again.' });
    await send(page, 'Hello');
    await conversation.getByRole('listitem', { name: 'Agent' }).getByText('Hello again.').waitFor();
    const threads = new Set((await runsOf(agentId)).map((item) => item.thread_id));
    expect(threads.size).toBe(2);

    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });

  it("shows the run's stored error when the provider is down, and says when no run starts, at phone width", {
    timeout: 60_000,
  }, async () => {
    const down = await server.call<{ id: string }>('POST', '/api/v1/model-providers', {
      name: 'Down',
      kind: 'openai_compatible',
      base_url: `http://127.0.0.1:${await freePort()}/v1`,
      default_model: 'small-1',
    });
    const agentId = await makeAgent('Offline helper', down.id);
    const session = await openSignedIn(browser, server, lead, { viewport: { width: 390, height: 800 } });
    const { page } = session;
    await page.goto(`/app/agents/${agentId}/playground`);
    await page.getByRole('heading', { name: 'Offline helper: playground', level: 1 }).waitFor();
    await send(page, 'Are you there?');
    const failed = await until(
      async () => (await runsOf(agentId)).find((run) => run.status === 'failed'),
      'the failed run',
      30_000,
    );
    expect(failed.error).toMatch(/\S/);
    const agentTurn = page.getByRole('list', { name: 'Conversation' }).getByRole('listitem', { name: 'Agent' });
    await agentTurn
      .getByRole('alert')
      .filter({ hasText: `The run failed: ${failed.error}` })
      .waitFor({ timeout: 30_000 });
    await agentTurn.getByText('Run failed', { exact: true }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await accessibilityProblems(page)).toEqual([]);

    // An inactive agent starts no run: the page says so instead of waiting.
    const idle = await server.call<{ id: string }>('POST', '/api/v1/agents', {
      name: 'Idle helper',
      status: 'inactive',
      configuration: { model_provider_id: providerId },
    });
    await page.goto(`/app/agents/${idle.id}/playground`);
    await page.getByRole('heading', { name: 'Idle helper: playground', level: 1 }).waitFor();
    await send(page, 'Hello?');
    await page
      .getByRole('alert')
      .filter({ hasText: /^No run started: the agent is inactive or has no model/ })
      .waitFor();
    expect(await runsOf(idle.id)).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });
});
