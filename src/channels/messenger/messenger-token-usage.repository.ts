import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';

export interface UsageDay {
  helpCenterId: string;
  organizationId: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
}

export async function findTokensUsed(db: Kysely<DB>, key: UsageDay): Promise<number> {
  const row = await db
    .selectFrom('messenger_token_usage')
    .select('used_tokens')
    .where('help_center_id', '=', key.helpCenterId)
    .where('day', '=', key.day)
    .executeTakeFirst();
  return Number(row?.used_tokens ?? 0);
}

/** Adds `tokens` to the day's count in one statement, whichever process answered. */
export async function addTokensUsed(db: Kysely<DB>, key: UsageDay, tokens: number, now: string): Promise<void> {
  await db
    .insertInto('messenger_token_usage')
    .values({
      help_center_id: key.helpCenterId,
      day: key.day,
      organization_id: key.organizationId,
      used_tokens: tokens,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['help_center_id', 'day']).doUpdateSet((eb) => ({
        used_tokens: eb('messenger_token_usage.used_tokens', '+', eb.ref('excluded.used_tokens')),
        updated_at: now,
      })),
    )
    .execute();
}
