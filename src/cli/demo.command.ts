import type { Config } from '../config.js';
import type { DemoSeedResult } from '../demo/demo-seed.js';
import { systemClock } from '../lib/clock.js';
import { resolveSecretKey } from '../lib/secret-box.js';
import { type CliIo, type Command, CommandError, JSON_OPTION, type ParsedArgs, text, withDatabase } from './command.js';

export const DEMO_SEED: Command = {
  name: 'demo seed',
  summary:
    'fill an organization with a demo support desk (teams, agents, accounts, contacts, tickets, a help center, an AI agent)',
  options: [
    { name: 'org', value: 'ID', help: 'seed this existing organization (default: a new organization named Demo)' },
    {
      name: 'password',
      value: 'P',
      help: "set the demo user's password (12 characters or more) instead of printing an invitation link",
    },
    JSON_OPTION,
  ],
  run: demoSeedCommand,
};

async function demoSeedCommand(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  const secretKey = resolveSecretKey(config);
  // Loaded by this command only: no other command needs the seed and its content.
  const { DemoAlreadySeededError, DemoSeedRefusedError, seedDemo } = await import('../demo/demo-seed.js');
  return withDatabase(config, async (db) => {
    let result: DemoSeedResult;
    try {
      result = await seedDemo(
        { db, config, secretKey, clock: systemClock },
        { organizationId: text(args, 'org'), password: text(args, 'password') },
      );
    } catch (error) {
      if (error instanceof DemoAlreadySeededError || error instanceof DemoSeedRefusedError) {
        throw new CommandError(error.message);
      }
      throw error;
    }
    if (args.values.json) {
      io.out(JSON.stringify(result));
    } else {
      printDemoSeed(io, result);
    }
    return 0;
  });
}

function printDemoSeed(io: CliIo, result: DemoSeedResult): void {
  const { organization, counts, signIn } = result;
  io.out(`${organization.created ? 'Created and seeded' : 'Seeded'} organization ${organization.name} (${organization.id}):`);
  io.out(`  ${counts.teams} teams, ${counts.agents} agents, ${counts.accounts} accounts, ${counts.contacts} contacts`);
  io.out(`  ${counts.tickets} tickets with ${counts.publicComments} public comments and ${counts.internalNotes} internal notes`);
  io.out(
    `  a help center with ${counts.collections} collections, ${counts.publishedArticles} published articles and ${counts.draftArticles} draft`,
  );
  io.out(`  an AI agent (${result.aiAgentId}) with ${counts.aiAgentTools} built-in tools`);
  if (result.adminApiKey) {
    io.out(`Admin API key (shown only this once): ${result.adminApiKey}`);
  }
  if (signIn.passwordSet) {
    io.out(`Sign in at ${signIn.url} as ${signIn.email} with the password you gave.`);
  } else {
    io.out(
      `Sign in at ${signIn.url} as ${signIn.email} after choosing a password at this link (works once, until ${signIn.expiresAt}):`,
    );
    io.out(signIn.invitationLink ?? '');
  }
}
