import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAgents } from '../src/agent-studio/agents/agent.repository.js';
import { listHistory, listMessages, listThreadsOfAgent } from '../src/agent-studio/chats/chat.repository.js';
import { listMcpServers } from '../src/agent-studio/mcp-servers/mcp-server.repository.js';
import { listAgentTools } from '../src/agent-studio/tools/agent-tool.repository.js';
import type { DB } from '../src/db/database.js';
import { listArticles } from '../src/help-center/articles/article.repository.js';
import {
  listChildCollections,
  listChildrenOfCollections,
  listTopLevelCollections,
} from '../src/help-center/collections/collection.repository.js';
import { listHelpCenters } from '../src/help-center/help-centers/help-center.repository.js';
import { listTags } from '../src/help-center/tags/tag.repository.js';
import { DIALECTS } from './dialects.js';
import { makeOrganization, type TestOrganization } from './factories.js';
import { buildTestApp, type TestApp } from './harness.js';
import { recordingStatements } from './sent-statements.js';

/**
 * The plans of the help-center and agent-studio list queries, exactly as their repository
 * functions write them, over 2,000 rows per list: each is a range of an index in the list's
 * order (SQLite: no temporary B-tree for ORDER BY; PostgreSQL, with sequential scans off: no sort
 * and no sequential scan), and the id query of a deep `offset` page reads the index alone.
 */
const ROWS = 2_000;
const PAGE = { limit: 51 };

describe.each(DIALECTS)('list query plans of the help center and agent studio on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let owner: { organizationId: string; userId: string };
  const ids = {
    helpCenter: '',
    parent: '',
    agent: '',
    thread: '',
    earlySortKey: '',
    childIds: [] as string[],
  };

  const instant = (index: number) => new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString();

  async function insertRows<T>(table: keyof DB, count: number, row: (index: number) => T): Promise<void> {
    const rows = Array.from({ length: count }, (_, index) => row(index));
    for (let start = 0; start < rows.length; start += 100) {
      // biome-ignore lint/suspicious/noExplicitAny: rows of any list table
      const batch = rows.slice(start, start + 100) as any;
      await harness.db.insertInto(table).values(batch).execute();
    }
  }

  /** The statements a repository call sends, as sent. */
  async function statementsOf(call: (db: Kysely<DB>) => Promise<unknown>): Promise<CompiledQuery[]> {
    const recording = recordingStatements(harness.db);
    await call(recording.db);
    return recording.statements;
  }

  type PlanNode = {
    'Node Type': string;
    'Relation Name'?: string;
    'Index Name'?: string;
    'Index Cond'?: string;
    Plans?: PlanNode[];
  };
  const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

  /**
   * SQLite: the lines of `EXPLAIN QUERY PLAN`; PostgreSQL: every node of the JSON plan, as
   * `type on relation using index (index condition)`.
   */
  async function planOf(statement: CompiledQuery): Promise<string[]> {
    if (dialect === 'sqlite') {
      const result = await harness.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
      );
      return result.rows.map((row) => row.detail);
    }
    return harness.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      // JSON comes back as text from this driver setup, as every JSON column does.
      const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]),
      );
      const [explained]: { Plan: PlanNode }[] = JSON.parse(result.rows[0]?.['QUERY PLAN'] ?? '[]');
      return explained
        ? nodesOf(explained.Plan).map((node) =>
            [
              node['Node Type'],
              node['Relation Name'] && `on ${node['Relation Name']}`,
              node['Index Name'] && `using ${node['Index Name']}`,
              node['Index Cond'],
            ]
              .filter(Boolean)
              .join(' '),
          )
        : [];
    });
  }

  /** Whether a plan line reads through one of `indexes`. */
  const readsThrough = (line: string, indexes: string[]) =>
    indexes.some((index) => new RegExp(dialect === 'sqlite' ? `INDEX ${index}\\b` : `using ${index}\\b`).test(line));

  /** Whether the index line bounds the range with the keyset condition, rather than filtering rows read from the start. */
  const boundedByKeys = (line: string) => (dialect === 'sqlite' ? /\(.*[<>].*\)$/ : /ROW\(/).test(line);

  /**
   * Every statement of the call reads `table` through one of `indexes` (whichever the planner picks
   * among indexes that serve the order, such as an older unique one), starting at the cursor's keys
   * when it has them, with no sort and no full scan.
   */
  async function expectIndexRange(
    call: (db: Kysely<DB>) => Promise<unknown>,
    table: string,
    indexes: string | string[],
    from: 'start' | 'cursor' = 'start',
  ) {
    const statements = await statementsOf(call);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      const plan = await planOf(statement);
      const shown = `${statement.sql}\n${plan.join('\n')}`;
      const ranges = plan.filter((line) => new RegExp(`\\b${table}\\b`).test(line) && readsThrough(line, [indexes].flat()));
      expect(ranges.length, shown).toBeGreaterThan(0);
      if (from === 'cursor') {
        expect(ranges.some(boundedByKeys), shown).toBe(true);
      }
      const sorts = dialect === 'sqlite' ? /TEMP B-TREE/ : /Sort/;
      expect(
        plan.filter((line) => sorts.test(line) || line.startsWith('Seq Scan') || line === `SCAN ${table}`),
        shown,
      ).toEqual([]);
    }
  }

  /** The id query of a deferred join reads the index alone: a covering index (SQLite), an index-only scan (PostgreSQL). */
  async function expectIdsFromIndexAlone(call: (db: Kysely<DB>) => Promise<unknown>, index: string) {
    const [statement] = await statementsOf(call);
    if (!statement) {
      throw new Error('no statement sent');
    }
    const plan = await planOf(statement);
    const shown = `${statement.sql}\n${plan.join('\n')}`;
    if (dialect === 'sqlite') {
      expect(
        plan.some((line) => line.includes(`USING COVERING INDEX ${index}`)),
        shown,
      ).toBe(true);
    } else {
      expect(
        plan.some((line) => line.startsWith('Index Only Scan') && line.includes(`using ${index}`)),
        shown,
      ).toBe(true);
      expect(
        plan.filter((line) => line.startsWith('Seq Scan')),
        shown,
      ).toEqual([]);
    }
  }

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    const globex = await makeOrganization(harness);
    owner = { organizationId: acme.organizationId, userId: acme.userId };
    const org = acme.organizationId;
    const user = acme.userId;
    const json = '{"title":null,"description":null,"image":null}';

    const helpCenterIds = Array.from({ length: ROWS }, () => harness.ids.objectId());
    ids.helpCenter = helpCenterIds[0] as string;
    await insertRows('help_centers', ROWS, (index) => ({
      id: helpCenterIds[index],
      organization_id: index % 10 === 9 ? globex.organizationId : org,
      name: `Help ${index}`,
      slug: `help-${index}`,
      is_protected: false,
      meta: json,
      created_by: index % 10 === 9 ? globex.userId : user,
      created_at: instant(index),
      updated_at: instant(index),
    }));
    // One help center holds 1,000 top-level collections and 1,000 children of the first; every
    // other help center of the organization holds one top-level collection.
    const collectionIds = Array.from({ length: 2 * ROWS }, () => harness.ids.objectId());
    ids.parent = collectionIds[0] as string;
    ids.childIds = collectionIds.slice(ROWS / 2, ROWS / 2 + 100);
    const acmeHelpCenters = helpCenterIds.filter((_, index) => index % 10 !== 9);
    await insertRows('help_center_collections', ROWS + acmeHelpCenters.length - 1, (index) => ({
      id: collectionIds[index],
      organization_id: org,
      uid: index + 1,
      help_center_id: index < ROWS ? ids.helpCenter : acmeHelpCenters[index - ROWS + 1],
      parent_id: index < ROWS / 2 || index >= ROWS ? null : ids.parent,
      name: `Collection ${index}`,
      slug: `collection-${index}`,
      description: null,
      icon: 'book',
      is_protected: false,
      meta: json,
      position: index < ROWS ? (index % (ROWS / 2)) + 1 : 1,
      created_by: user,
      created_at: instant(index),
      updated_at: instant(index),
    }));
    await insertRows('help_center_articles', ROWS, (index) => ({
      id: harness.ids.objectId(),
      organization_id: org,
      uid: index + 1,
      title: `Article ${index}`,
      description: null,
      slug: `${index + 1}-article`,
      state: index % 2 === 0 ? 'draft' : 'published',
      content_html: '<p>Body</p>',
      content_markdown: 'Body',
      meta: json,
      version_count: 0,
      published_title: null,
      published_description: null,
      published_html: null,
      published_by: null,
      published_at: null,
      created_by: user,
      last_edited_by: user,
      last_edited_at: instant(index),
      created_at: instant(index),
      updated_at: instant(index),
      deleted_at: index % 20 === 0 ? instant(index) : null,
    }));
    await insertRows('help_center_tags', ROWS, (index) => ({
      id: harness.ids.objectId(),
      organization_id: org,
      name: `Tag ${index}`,
      lower_name: `tag ${index}`,
      created_by: user,
      created_at: instant(index),
      updated_at: instant(index),
    }));

    const agentIds = Array.from({ length: ROWS }, () => harness.ids.uuid());
    ids.agent = agentIds[0] as string;
    await insertRows('agents', ROWS, (index) => ({
      id: agentIds[index],
      organization_id: org,
      created_by_id: user,
      name: `Agent ${index}`,
      description: null,
      configuration: '{}',
      template_id: null,
      avatar_url: null,
      metadata: null,
      status: index % 3 === 0 ? 'inactive' : 'active',
      created_at: instant(index),
      updated_at: instant(index),
      deleted_at: index % 20 === 0 ? instant(index) : null,
    }));
    await insertRows('agent_tools', ROWS, (index) => ({
      id: harness.ids.uuid(),
      organization_id: org,
      agent_id: index % 2 === 0 ? ids.agent : agentIds[1],
      tool_name: `tool_${index}`,
      tool_type: index % 3 === 0 ? 'external_tool' : 'built_in',
      configuration: null,
      is_enabled: index % 4 !== 0,
      mcp_server_id: null,
      external_tool_connection_id: null,
      created_at: instant(index),
      updated_at: instant(index),
    }));
    await insertRows('mcp_servers', ROWS, (index) => ({
      id: harness.ids.uuid(),
      organization_id: org,
      agent_id: index % 2 === 0 ? ids.agent : agentIds[1],
      created_by_id: user,
      name: `Server ${index}`,
      url: 'https://mcp.example.com',
      auth_type: 'none',
      auth_config: null,
      client_secret_encrypted: null,
      static_header_encrypted: null,
      tool_discovery_endpoint: null,
      health_check_url: null,
      transport: null,
      status: index % 3 === 0 ? 'connected' : 'disconnected',
      connection_state: 'disconnected',
      status_message: null,
      is_enabled: true,
      discovered_tools: null,
      last_connected_at: null,
      connected_by_user_id: null,
      last_health_check: null,
      token_expires_at: null,
      created_at: instant(index),
      updated_at: instant(index),
      deleted_at: index % 20 === 0 ? instant(index) : null,
    }));
    const threadIds = Array.from({ length: ROWS }, () => harness.ids.uuid());
    ids.thread = threadIds[0] as string;
    await insertRows('chat_threads', ROWS, (index) => ({
      id: threadIds[index],
      organization_id: org,
      agent_id: index % 2 === 0 ? ids.agent : agentIds[1 + (index % 7)],
      user_id: user,
      title: null,
      metadata: null,
      last_activity_at: instant(index),
      created_at: instant(index),
      updated_at: instant(index),
    }));
    const sortKeys = Array.from({ length: ROWS }, () => harness.ids.ulid());
    ids.earlySortKey = sortKeys[100] as string;
    await insertRows('chat_messages', ROWS, (index) => ({
      id: harness.ids.uuid(),
      organization_id: org,
      thread_id: index % 2 === 0 ? ids.thread : threadIds[1 + (index % 7)],
      sort_key: sortKeys[index],
      role: 'user',
      content: `Message ${index}`,
      content_html: null,
      tool_calls: null,
      attachments: null,
      metadata: null,
      created_at: instant(index),
    }));
    if (dialect === 'postgres') {
      // As autovacuum would have: statistics, and the visibility map that index-only scans need.
      await sql`vacuum analyze`.execute(harness.db);
    }
  });
  afterAll(() => harness.close());

  const org = () => acme.organizationId;

  it('help centers: first page and cursor page on (organization_id, created_at, id)', async () => {
    const index = 'help_centers_organization_created';
    await expectIndexRange((db) => listHelpCenters(db, org(), PAGE), 'help_centers', index);
    await expectIndexRange(
      (db) => listHelpCenters(db, org(), { ...PAGE, after: [instant(200), 'ffffffffffffffffffffffff'] }),
      'help_centers',
      index,
      'cursor',
    );
  });

  it('collections: top-level pages of the organization and of one help center, with and without subtrees, children pages and subtree levels', async () => {
    const topLevel = 'help_center_collections_top_level_order';
    const children = 'help_center_collections_children_order';
    const after = [ids.helpCenter, 100, 'ffffffffffffffffffffffff'];
    for (const subtrees of [false, true]) {
      await expectIndexRange(
        (db) => listTopLevelCollections(db, org(), { ...PAGE, subtrees }),
        'help_center_collections',
        topLevel,
      );
      await expectIndexRange(
        (db) => listTopLevelCollections(db, org(), { ...PAGE, subtrees, after }),
        'help_center_collections',
        topLevel,
        'cursor',
      );
      await expectIndexRange(
        (db) => listTopLevelCollections(db, org(), { ...PAGE, subtrees, helpCenterId: ids.helpCenter }),
        'help_center_collections',
        topLevel,
      );
      await expectIndexRange(
        (db) => listTopLevelCollections(db, org(), { ...PAGE, subtrees, helpCenterId: ids.helpCenter, after }),
        'help_center_collections',
        topLevel,
        'cursor',
      );
    }
    // The levels under the page's collections each read the children's index, not the table
    // (SQLite names the table by its alias in the query).
    await expectIndexRange(
      (db) => listTopLevelCollections(db, org(), { ...PAGE, subtrees: true, helpCenterId: ids.helpCenter }),
      dialect === 'sqlite' ? 'child' : 'help_center_collections',
      [children, 'help_center_collections_parent'],
    );
    await expectIndexRange((db) => listChildCollections(db, org(), ids.parent, PAGE), 'help_center_collections', children);
    await expectIndexRange(
      (db) => listChildCollections(db, org(), ids.parent, { ...PAGE, after: [100, 'ffffffffffffffffffffffff'] }),
      'help_center_collections',
      children,
      'cursor',
    );
    await expectIndexRange((db) => listChildrenOfCollections(db, org(), ids.childIds), 'help_center_collections', [
      children,
      'help_center_collections_parent',
    ]);
  });

  it('articles: live ones by uid, with and without the state filter', async () => {
    const after = [200, 'ffffffffffffffffffffffff'];
    // SQLite also orders by the unique (organization_id, uid): uid alone decides the order.
    const liveByUid = ['help_center_articles_live_uid', 'help_center_articles_organization_uid'];
    await expectIndexRange((db) => listArticles(db, org(), {}, PAGE), 'help_center_articles', liveByUid);
    await expectIndexRange((db) => listArticles(db, org(), {}, { ...PAGE, after }), 'help_center_articles', liveByUid, 'cursor');
    await expectIndexRange(
      (db) => listArticles(db, org(), { state: 'published' }, { ...PAGE, after }),
      'help_center_articles',
      'help_center_articles_live_state_uid',
      'cursor',
    );
  });

  it('tags: alphabetical on (organization_id, lower_name, id)', async () => {
    // SQLite also orders by the unique (organization_id, lower_name): the name alone decides the order.
    const index = ['help_center_tags_organization_name_order', 'help_center_tags_organization_lower_name'];
    await expectIndexRange((db) => listTags(db, org(), PAGE), 'help_center_tags', index);
    await expectIndexRange(
      (db) => listTags(db, org(), { ...PAGE, after: ['tag 1', 'ffffffffffffffffffffffff'] }),
      'help_center_tags',
      index,
      'cursor',
    );
  });

  it('agents: live ones oldest first, with and without the status filter', async () => {
    const after = [instant(200), 'ffffffff-ffff-4fff-bfff-ffffffffffff'];
    await expectIndexRange((db) => listAgents(db, org(), {}, PAGE), 'agents', 'agents_live_created');
    await expectIndexRange((db) => listAgents(db, org(), {}, { ...PAGE, after }), 'agents', 'agents_live_created', 'cursor');
    await expectIndexRange(
      (db) => listAgents(db, org(), { status: 'inactive' }, { ...PAGE, after }),
      'agents',
      'agents_live_status_created',
      'cursor',
    );
  });

  it('agent tools: by creation, with each filter', async () => {
    const after = [instant(200), 'ffffffff-ffff-4fff-bfff-ffffffffffff'];
    await expectIndexRange((db) => listAgentTools(db, ids.agent, {}, PAGE), 'agent_tools', 'agent_tools_agent_created');
    await expectIndexRange(
      (db) => listAgentTools(db, ids.agent, {}, { ...PAGE, after }),
      'agent_tools',
      'agent_tools_agent_created',
      'cursor',
    );
    await expectIndexRange(
      (db) => listAgentTools(db, ids.agent, { toolType: 'external_tool' }, { ...PAGE, after }),
      'agent_tools',
      'agent_tools_agent_type_created',
      'cursor',
    );
    await expectIndexRange(
      (db) => listAgentTools(db, ids.agent, { isEnabled: false }, { ...PAGE, after }),
      'agent_tools',
      'agent_tools_agent_enabled_created',
      'cursor',
    );
  });

  it('MCP servers: live ones by creation, with and without the status filter', async () => {
    const after = [instant(200), 'ffffffff-ffff-4fff-bfff-ffffffffffff'];
    await expectIndexRange((db) => listMcpServers(db, ids.agent, {}, PAGE), 'mcp_servers', 'mcp_servers_live_agent_created');
    await expectIndexRange(
      (db) => listMcpServers(db, ids.agent, {}, { ...PAGE, after }),
      'mcp_servers',
      'mcp_servers_live_agent_created',
      'cursor',
    );
    await expectIndexRange(
      (db) => listMcpServers(db, ids.agent, { status: 'connected' }, { ...PAGE, after }),
      'mcp_servers',
      'mcp_servers_live_agent_status_created',
      'cursor',
    );
  });

  it('chat threads of an agent and chat history: latest activity first, by cursor and by offset', async () => {
    const after = [instant(1800), 'ffffffff-ffff-4fff-bfff-ffffffffffff'];
    const index = 'chat_threads_user_agent_activity';
    await expectIndexRange((db) => listThreadsOfAgent(db, owner, ids.agent, PAGE), 'chat_threads', index);
    await expectIndexRange((db) => listThreadsOfAgent(db, owner, ids.agent, { ...PAGE, after }), 'chat_threads', index, 'cursor');
    await expectIndexRange((db) => listThreadsOfAgent(db, owner, ids.agent, { ...PAGE, offset: 500 }), 'chat_threads', index);
    await expectIdsFromIndexAlone((db) => listThreadsOfAgent(db, owner, ids.agent, { ...PAGE, offset: 500 }), index);

    const history = { lastActivityAt: instant(1800), id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' };
    await expectIndexRange(
      (db) => listHistory(db, owner, { after: history, limit: 11 }),
      'chat_threads',
      'chat_threads_user_activity',
      'cursor',
    );
    await expectIndexRange(
      (db) => listHistory(db, owner, { agentId: ids.agent, after: history, limit: 11 }),
      'chat_threads',
      index,
      'cursor',
    );
  });

  it('chat messages: write order, by cursor and by offset', async () => {
    const index = 'chat_messages_thread_order_id';
    await expectIndexRange((db) => listMessages(db, ids.thread, PAGE), 'chat_messages', index);
    await expectIndexRange(
      (db) => listMessages(db, ids.thread, { ...PAGE, after: [ids.earlySortKey, 'ffffffff-ffff-4fff-bfff-ffffffffffff'] }),
      'chat_messages',
      index,
      'cursor',
    );
    await expectIndexRange((db) => listMessages(db, ids.thread, { ...PAGE, offset: 500 }), 'chat_messages', index);
    await expectIdsFromIndexAlone((db) => listMessages(db, ids.thread, { ...PAGE, offset: 500 }), index);
  });
});
