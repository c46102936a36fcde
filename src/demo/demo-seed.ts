import type { Kysely } from 'kysely';
import { createAgent } from '../agent-studio/agents/agent.service.js';
import { createAgentTool } from '../agent-studio/tools/agent-tool.service.js';
import { type Config, publicBaseUrl } from '../config.js';
import type { DB } from '../db/database.js';
import { createArticle, publishArticle } from '../help-center/articles/article.service.js';
import { createCollection } from '../help-center/collections/collection.service.js';
import { createHelpCenter } from '../help-center/help-centers/help-center.service.js';
import { type Clock, fixedClock } from '../lib/clock.js';
import { createIdFactory } from '../lib/ids.js';
import type { Principal } from '../lib/principal.js';
import { createAccount } from '../platform/accounts/account.service.js';
import { acceptInvitation, createInvitationLink } from '../platform/auth/auth-token.service.js';
import { checkNewPassword } from '../platform/auth/password.js';
import { signOut } from '../platform/auth/session.service.js';
import { createContact } from '../platform/contacts/customer-contact.service.js';
import { findOrganizationById, listOrganizations } from '../platform/organizations/organization.repository.js';
import { createOrganizationWithAdmin } from '../platform/organizations/organization.service.js';
import { updateTeamConfiguration } from '../platform/team-configurations/team-configuration.service.js';
import { createTag } from '../platform/team-tags/team-tag.service.js';
import { findTeamByIdentifier } from '../platform/teams/team.repository.js';
import { addTeamMember, createTeam } from '../platform/teams/team.service.js';
import { type AgentAuthor, addComment } from '../platform/tickets/comment.service.js';
import { updateTicketFields } from '../platform/tickets/ticket.service.js';
import { createTicket } from '../platform/tickets/ticket-create.service.js';
import { announceCredentialsChanged } from '../platform/users/credentials.signal.js';
import { findUsersByEmail, listUsers } from '../platform/users/user.repository.js';
import { addUserToOrganization, updateUserProfile } from '../platform/users/user.service.js';
import {
  DEMO_ACCOUNTS,
  DEMO_AGENTS,
  DEMO_AI_AGENT,
  DEMO_COLLECTIONS,
  DEMO_CONTACTS,
  DEMO_HELP_CENTER,
  DEMO_ORGANIZATION_NAME,
  DEMO_SIGN_IN,
  DEMO_TEAMS,
  DEMO_TICKETS,
  type DemoMessage,
  type DemoTicket,
} from './demo-content.js';

export interface DemoSeedDeps {
  db: Kysely<DB>;
  config: Config;
  secretKey: Buffer;
  /** The real clock: the seeded history ends before its "now", and the sign-in link starts from it. */
  clock: Clock;
}

export interface DemoSeedOptions {
  /** Seed this existing organization; absent: a new organization named Demo. */
  organizationId?: string;
  /** Set this password for the demo user instead of printing an invitation link. */
  password?: string;
}

/** The organization holds demo data already (or a team with the demo's identifier): nothing was written. */
export class DemoAlreadySeededError extends Error {}

/** The seed cannot start (an unknown organization, one without an admin, a password the rules refuse): nothing was written. */
export class DemoSeedRefusedError extends Error {}

/** How far back the seeded history starts: tickets are spread over these days, up to shortly before now. */
const HISTORY_DAYS = 21;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The services' dependencies on a clock of the seed's own, moved along the made-up history. */
function timelineDeps(deps: DemoSeedDeps) {
  const start = Math.floor((deps.clock.now().getTime() - HISTORY_DAYS * DAY) / (60 * MINUTE)) * 60 * MINUTE;
  const clock = fixedClock(new Date(start));
  // A command of its own process, caching no key: a credentials change it made is announced to the servers.
  const credentialsChanged = async (userId: string) => {
    await announceCredentialsChanged(deps.db, [userId]);
  };
  return {
    db: deps.db,
    config: deps.config,
    secretKey: deps.secretKey,
    clock,
    ids: createIdFactory(clock),
    start,
    credentialsChanged,
  };
}

type SeedDeps = ReturnType<typeof timelineDeps>;

interface Seeded {
  admin: Principal;
  users: Map<string, Principal>;
  teams: Map<string, { id: string; tags: Map<string, string> }>;
  accounts: Map<string, string>;
  contacts: Map<string, string>;
  agent: AgentAuthor;
}

export interface DemoSeedResult {
  organization: { id: string; name: string; created: boolean };
  /** The new organization's admin key, shown once; absent when an existing organization was seeded. */
  adminApiKey: string | null;
  counts: {
    teams: number;
    agents: number;
    accounts: number;
    contacts: number;
    tickets: number;
    publicComments: number;
    internalNotes: number;
    collections: number;
    publishedArticles: number;
    draftArticles: number;
    aiAgentTools: number;
  };
  aiAgentId: string;
  signIn: { url: string; email: string; passwordSet: boolean; invitationLink: string | null; expiresAt: string | null };
}

/**
 * Fills one organization with the demo desk of `demo-content.ts` through the services, so that
 * numbers, events, search documents and timelines are what real use makes. It refuses an
 * organization that already has the demo's first team (or, without `organizationId`, an
 * existing organization named Demo), before writing anything.
 */
export async function seedDemo(deps: DemoSeedDeps, options: DemoSeedOptions = {}): Promise<DemoSeedResult> {
  if (options.password !== undefined) {
    await refuseBadPassword(options.password);
  }
  const target = await resolveTarget(deps.db, options.organizationId);
  const seed = timelineDeps(deps);
  const organization = target ?? (await createDemoOrganization(seed));
  const admin = organization.admin;
  const seeded = await seedPeopleAndPlaces(seed, admin, organization.created);
  const articles = await seedHelpCenter(seed, admin);
  const comments = await seedTickets(seed, seeded);
  const signIn = await prepareSignIn(deps, organization.id, seeded, options.password);
  return {
    organization: { id: organization.id, name: organization.name, created: organization.created },
    adminApiKey: organization.apiKey,
    counts: {
      teams: DEMO_TEAMS.length,
      agents: DEMO_AGENTS.length,
      accounts: DEMO_ACCOUNTS.length,
      contacts: DEMO_CONTACTS.length,
      tickets: DEMO_TICKETS.length,
      ...comments,
      collections: DEMO_COLLECTIONS.length,
      ...articles,
      aiAgentTools: DEMO_AI_AGENT.tools.length,
    },
    aiAgentId: seeded.agent.agentId,
    signIn,
  };
}

async function refuseBadPassword(password: string): Promise<void> {
  try {
    await checkNewPassword(password, DEMO_SIGN_IN.email);
  } catch (error) {
    throw new DemoSeedRefusedError(`--password: ${error instanceof Error ? error.message : String(error)}`);
  }
}

interface Target {
  id: string;
  name: string;
  created: boolean;
  admin: Principal;
  apiKey: string | null;
}

/** The existing organization to seed (checked not seeded yet), or null for a new one (checked that no Demo exists). */
async function resolveTarget(db: Kysely<DB>, organizationId: string | undefined): Promise<Target | null> {
  if (organizationId === undefined) {
    const existing = (await listOrganizations(db)).find((organization) => organization.name === DEMO_ORGANIZATION_NAME);
    if (existing) {
      throw new DemoAlreadySeededError(
        `An organization named ${DEMO_ORGANIZATION_NAME} exists already (${existing.id}): it is seeded; nothing was written`,
      );
    }
    return null;
  }
  const organization = await findOrganizationById(db, organizationId);
  if (!organization) {
    throw new DemoSeedRefusedError(`No organization ${organizationId} (see switchboard orgs list)`);
  }
  const marker = DEMO_TEAMS[0]?.identifier ?? '';
  if (await findTeamByIdentifier(db, organization.id, marker)) {
    throw new DemoAlreadySeededError(
      `${organization.name} (${organization.id}) has a team ${marker} already: it looks seeded; nothing was written`,
    );
  }
  const users = await listUsers(db, organization.id, { offset: 0, limit: 1000 });
  const admin = users.find((user) => user.user_type === 'ORG_ADMIN' && user.disabled_at === null);
  if (!admin) {
    throw new DemoSeedRefusedError(`${organization.name} (${organization.id}) has no admin to seed it as`);
  }
  return {
    id: organization.id,
    name: organization.name,
    created: false,
    admin: { organizationId: organization.id, userId: admin.id, userType: 'ORG_ADMIN' },
    apiKey: null,
  };
}

async function createDemoOrganization(seed: SeedDeps): Promise<Target> {
  const created = await createOrganizationWithAdmin(seed, {
    name: DEMO_ORGANIZATION_NAME,
    adminEmail: DEMO_SIGN_IN.email,
    adminName: DEMO_SIGN_IN.name,
  });
  return {
    id: created.organizationId,
    name: DEMO_ORGANIZATION_NAME,
    created: true,
    admin: { organizationId: created.organizationId, userId: created.userId, userType: 'ORG_ADMIN' },
    apiKey: created.apiKey,
  };
}

/** Agents (users, online), teams with members and tags, accounts, contacts and the AI agent. */
async function seedPeopleAndPlaces(seed: SeedDeps, admin: Principal, newOrganization: boolean): Promise<Seeded> {
  const users = new Map<string, Principal>();
  for (const agent of DEMO_AGENTS) {
    seed.clock.advance(MINUTE);
    users.set(agent.key, await demoUser(seed, admin, agent, newOrganization && agent.email === DEMO_SIGN_IN.email));
  }
  const teams = await seedTeams(seed, admin, users);
  const accounts = new Map<string, string>();
  for (const account of DEMO_ACCOUNTS) {
    accounts.set(account.key, (await createAccount(seed, admin, { name: account.name, primaryDomain: account.domain })).id);
  }
  const contacts = new Map<string, string>();
  for (const contact of DEMO_CONTACTS) {
    const accountId = contact.account ? accounts.get(contact.account) : undefined;
    const created = await createContact(seed, admin, {
      firstName: contact.firstName,
      lastName: contact.lastName,
      email: contact.email,
      phoneNumber: contact.phone ?? null,
      accountIds: accountId ? [accountId] : [],
    });
    contacts.set(contact.key, created.email);
  }
  const agent = await agentStudioDemoAgent(seed, admin);
  return { admin, users, teams, accounts, contacts, agent };
}

/** The teams, with their members, round-robin assignment and ticket tags. */
async function seedTeams(seed: SeedDeps, admin: Principal, users: Map<string, Principal>) {
  const teams = new Map<string, { id: string; tags: Map<string, string> }>();
  for (const team of DEMO_TEAMS) {
    seed.clock.advance(MINUTE);
    const created = await createTeam(seed, admin, {
      name: team.name,
      identifier: team.identifier,
      description: team.description,
      isPrivate: team.isPrivate ?? false,
    });
    for (const key of team.members) {
      const member = users.get(key);
      if (member && member.userId !== admin.userId) {
        await addTeamMember(seed, admin, created.id, { userId: member.userId });
      }
    }
    await updateTeamConfiguration(seed, admin, created.id, { userRoutingStrategy: 'round_robin' });
    const tags = new Map<string, string>();
    for (const name of team.tags) {
      const { items } = await createTag(seed, admin, created.id, { name });
      for (const tag of items) {
        tags.set(tag.name, tag.id);
      }
    }
    teams.set(team.key, { id: created.id, tags });
  }
  return teams;
}

/** The demo's user for `agent`: the new organization's admin for the sign-in user, else an existing user with the email, else a new member. */
async function demoUser(
  seed: SeedDeps,
  admin: Principal,
  agent: { name: string; email: string },
  isAdmin: boolean,
): Promise<Principal> {
  if (isAdmin) {
    return admin;
  }
  const [existing] = await findUsersByEmail(seed.db, agent.email, admin.organizationId);
  const user =
    existing ??
    (await addUserToOrganization(seed, admin.organizationId, { name: agent.name, email: agent.email, userType: 'ORG_MEMBER' }));
  const principal: Principal = { organizationId: admin.organizationId, userId: user.id, userType: 'ORG_MEMBER' };
  await updateUserProfile(seed, admin, user.id, { status: 'online' });
  return principal;
}

/** The AI agent of the agent studio, with the built-in tools that let it answer from the help center and hand off. */
async function agentStudioDemoAgent(seed: SeedDeps, admin: Principal): Promise<AgentAuthor> {
  seed.clock.advance(MINUTE);
  const agent = await createAgent(seed, admin, { name: DEMO_AI_AGENT.name, description: DEMO_AI_AGENT.description });
  for (const toolName of DEMO_AI_AGENT.tools) {
    await createAgentTool(seed, admin, agent.id, { agent_id: agent.id, tool_name: toolName, tool_type: 'built_in' });
  }
  return { agentId: agent.id, name: agent.name, avatarUrl: agent.avatar_url };
}

async function seedHelpCenter(seed: SeedDeps, admin: Principal) {
  seed.clock.advance(MINUTE);
  const helpCenter = await createHelpCenter(seed, admin, { name: DEMO_HELP_CENTER.name });
  let publishedArticles = 0;
  let draftArticles = 0;
  for (const collection of DEMO_COLLECTIONS) {
    const created = await createCollection(seed, admin, {
      helpCenterId: helpCenter._id,
      name: collection.name,
      description: collection.description,
      icon: collection.icon,
    });
    for (const article of collection.articles) {
      seed.clock.advance(MINUTE);
      const written = await createArticle(seed, admin, {
        title: article.title,
        description: article.description,
        collectionId: created._id,
        contentMarkdown: article.markdown,
      });
      if (article.draft) {
        draftArticles++;
      } else {
        await publishArticle(seed, admin, written._id);
        publishedArticles++;
      }
    }
  }
  return { publishedArticles, draftArticles };
}

/** The tickets, spread over the history, each with its conversation, then moved to the status it ends in. */
async function seedTickets(seed: SeedDeps, seeded: Seeded) {
  const spacing = Math.floor(((HISTORY_DAYS - 1) * DAY) / DEMO_TICKETS.length);
  const counts = { publicComments: 0, internalNotes: 0 };
  for (const [index, ticket] of DEMO_TICKETS.entries()) {
    seed.clock.set(new Date(seed.start + DAY + index * spacing));
    const id = await openDemoTicket(seed, seeded, ticket);
    for (const [position, message] of (ticket.messages ?? []).entries()) {
      // Replies come minutes to hours apart, always before the next ticket.
      seed.clock.advance((17 + 41 * position) * MINUTE);
      await postMessage(seed, seeded, id, ticket, message);
      if (message.from === 'customer' || message.from === 'agent') {
        counts.publicComments++;
      } else {
        counts.internalNotes++;
      }
    }
    if (ticket.status !== 'Open') {
      seed.clock.advance(30 * MINUTE);
      const by = (ticket.assignee && seeded.users.get(ticket.assignee)) || seeded.admin;
      await updateTicketFields(seed, by, id, { statusName: ticket.status });
    }
  }
  return counts;
}

async function openDemoTicket(seed: SeedDeps, seeded: Seeded, ticket: DemoTicket): Promise<string> {
  const team = seeded.teams.get(ticket.team);
  const requestorEmail = seeded.contacts.get(ticket.requestor);
  if (!team || !requestorEmail) {
    throw new Error(`demo ticket "${ticket.title}" names an unknown team or requestor`);
  }
  const assignee = ticket.assignee ? seeded.users.get(ticket.assignee) : undefined;
  const created = await createTicket(seed, seeded.admin, {
    title: ticket.title,
    description: ticket.description,
    requestorEmail,
    teamId: team.id,
    priorityName: ticket.priority,
    assignedAgentId: assignee?.userId ?? null,
    tagIds: (ticket.tags ?? []).flatMap((name) => team.tags.get(name) ?? []),
    source: 'email',
    performRouting: false,
  });
  return created.id;
}

async function postMessage(seed: SeedDeps, seeded: Seeded, ticketId: string, ticket: DemoTicket, message: DemoMessage) {
  const shouldSendEmail = false;
  switch (message.from) {
    case 'customer':
      // Relayed by an admin on the contact's behalf: the comment is the customer's.
      await addComment(seed, seeded.admin, ticketId, {
        content: message.text,
        customerEmail: seeded.contacts.get(ticket.requestor),
        shouldSendEmail,
      });
      return;
    case 'agent':
      await addComment(seed, userOf(seeded, message.agent), ticketId, { content: message.text, shouldSendEmail });
      return;
    case 'note':
      await addComment(seed, userOf(seeded, message.agent), ticketId, { content: message.text, commentType: 'note' });
      return;
    case 'ai_note':
      await addComment(seed, seeded.admin, ticketId, { content: message.text, commentType: 'note' }, { agent: seeded.agent });
      return;
  }
}

function userOf(seeded: Seeded, key: string): Principal {
  const user = seeded.users.get(key);
  if (!user) {
    throw new Error(`demo message names an unknown agent ${key}`);
  }
  return user;
}

/**
 * How the demo user signs in: with the password given (set through an invitation accepted at
 * once, whose session is ended again), or with an invitation link to choose one. Both on the real
 * clock, so the link is valid from now.
 */
async function prepareSignIn(deps: DemoSeedDeps, organizationId: string, seeded: Seeded, password: string | undefined) {
  const signInUser = seeded.users.get(DEMO_AGENTS[0]?.key ?? '');
  if (!signInUser) {
    throw new Error('the demo has no sign-in user');
  }
  const live = { db: deps.db, clock: deps.clock, ids: createIdFactory(deps.clock), config: deps.config };
  const invitation = await createInvitationLink(live, organizationId, signInUser.userId);
  const url = `${publicBaseUrl(deps.config, 'platform')}/app/`;
  if (password === undefined) {
    return { url, email: invitation.email, passwordSet: false, invitationLink: invitation.link, expiresAt: invitation.expiresAt };
  }
  const token = new URL(invitation.link).searchParams.get('token') ?? '';
  const accepted = await acceptInvitation(
    live,
    { token, password },
    { userAgent: 'switchboard demo seed', ipAddress: '127.0.0.1' },
  );
  await signOut(deps.db, { ...signInUser, sessionId: accepted.answer.session.id });
  return { url, email: invitation.email, passwordSet: true, invitationLink: null, expiresAt: null };
}
