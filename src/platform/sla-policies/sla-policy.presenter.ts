import { readBoolean, readJson } from '../../db/dialect.js';
import type { SlaPolicyRow } from './sla-policy.repository.js';
import type { SlaTargets } from './sla-policy.schemas.js';

export function toSlaPolicy(row: SlaPolicyRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    position: Number(row.position),
    andRules: readJson<string[]>(row.and_rules) ?? [],
    orRules: readJson<string[]>(row.or_rules) ?? [],
    targets: readJson<Record<string, SlaTargets>>(row.targets) ?? {},
    businessHours: readBoolean(row.business_hours),
    aiRepliesCount: readBoolean(row.ai_replies_count),
    warningShare: Number(row.warning_share),
    createdById: row.created_by_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type SlaPolicy = ReturnType<typeof toSlaPolicy>;
