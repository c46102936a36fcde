import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { closeServer, listen } from '../../../test/mcp/authorization-server.js';
import { type ModelRequest, startModelServer, type TestModelServer } from '../../../test/model-server.js';

const UNKNOWN = '3f1c2b9e-8a4d-4c7e-9b1a-2d3e4f5a6b7c';
const NUL = String.fromCharCode(0);

/**
 * A tool's output is text from outside: a run whose tool answered NUL bytes and invalid UTF-8 is
 * stored (its tool calls, its conversation and the thread's message are JSON, `jsonb` on
 * PostgreSQL, which refuses `\u0000`), and the thread's next message runs.
 */
describe.each(DIALECTS)('outside text in agent runs on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let model: TestModelServer;
  const tool = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    // NUL bytes, a byte no UTF-8 has, a surrogate encoded as UTF-8 would (CESU-8).
    response.end(Buffer.concat([Buffer.from('report'), Buffer.from([0x00, 0xff, 0xed, 0xa0, 0x80, 0x00]), Buffer.from(' done')]));
  });
  let toolPort: number;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
    acme = await makeOrganization(harness);
    model = await startModelServer();
    toolPort = await listen(tool);
  });
  afterAll(async () => {
    await harness?.close();
    await model?.close();
    await closeServer(tool);
  });

  async function call(method: 'GET' | 'POST', url: string, payload?: object) {
    const response = await harness.app.inject({ method, url: `/api/v1${url}`, headers: acme.headers, payload });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
    return response.json();
  }

  it('stores a tool output with NUL bytes and invalid UTF-8, and the next message of the thread runs', async () => {
    const provider = await call('POST', '/model-providers', {
      name: 'Loopback',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-outside-text',
      default_model: 'test-model',
    });
    const agent = await call('POST', '/agents', { name: 'Reader', configuration: { model_provider_id: provider.id } });
    await call('POST', `/agents/${agent.id}/tools`, {
      agent_id: agent.id,
      tool_name: 'fetch_report',
      tool_type: 'external_tool',
      external_tool_connection_id: UNKNOWN,
      configuration: {
        url: `http://127.0.0.1:${toolPort}/report`,
        description: 'Fetches a report',
        parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false },
      },
    });
    const thread = await call('POST', `/chat/${agent.id}/threads`, { title: 'Reports' });
    model.script(
      { toolCalls: [{ name: 'fetch_report', arguments: { id: 7 } }] },
      { text: 'The report is in.' },
      { text: 'Next.' },
    );

    const answer = await call('POST', `/chat/${agent.id}/threads/${thread.id}/messages`, { role: 'user', content: 'Report 7?' });
    expect(answer.content).toBe('The report is in.');
    // The model got the output as the tool gave it; what is stored has neither NUL nor a lone surrogate.
    const fed = [...(model.requests[1] as ModelRequest).body.messages].reverse().find((message) => message.role === 'tool');
    expect(String(fed?.content)).toContain('report');
    const [run] = await call('GET', `/agents/${agent.id}/runs`);
    expect(run).toMatchObject({ status: 'succeeded', final_text: 'The report is in.' });
    const output = JSON.stringify(run.tool_calls[0].result);
    expect(output).toContain('report');
    expect(output).toContain(' done');
    expect(output).not.toContain('\\u0000');
    expect(output).not.toContain(NUL);
    const messages = await call('GET', `/chat/${agent.id}/threads/${thread.id}/messages`);
    expect(JSON.stringify(messages)).toContain('\uFFFD');

    const next = await call('POST', `/chat/${agent.id}/threads/${thread.id}/messages`, { role: 'user', content: 'And then?' });
    expect(next.content).toBe('Next.');
  });
});
