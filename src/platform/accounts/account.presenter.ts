import { readJson } from '../../db/dialect.js';
import type { CustomFieldValueEntry } from '../custom-fields/custom-field.values.js';
import type { AccountRow } from './account.repository.js';
import { toAttributeConfiguration } from './account-attribute.presenter.js';

export function toAccount(row: AccountRow) {
  const attribute = (id: string | null, value: string | null, icon: string | null, color: string | null) => ({
    id,
    value,
    configuration: toAttributeConfiguration({ id, value, icon, color }),
  });
  const status = attribute(row.status_id, row.status_value, row.status_icon, row.status_color);
  const classification = attribute(
    row.classification_id,
    row.classification_value,
    row.classification_icon,
    row.classification_color,
  );
  const health = attribute(row.health_id, row.health_value, row.health_icon, row.health_color);
  const industry = attribute(row.industry_id, row.industry_value, row.industry_icon, row.industry_color);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    source: row.source,
    logo: row.logo,
    primaryDomain: row.primary_domain,
    secondaryDomain: row.secondary_domain,
    website: row.website,
    statusId: status.id,
    status: status.value,
    statusConfiguration: status.configuration,
    classificationId: classification.id,
    classification: classification.value,
    classificationConfiguration: classification.configuration,
    healthId: health.id,
    health: health.value,
    healthConfiguration: health.configuration,
    industryId: industry.id,
    industry: industry.value,
    industryConfiguration: industry.configuration,
    accountOwner: row.owner_name,
    accountOwnerId: row.account_owner_id,
    accountOwnerEmail: row.owner_email,
    accountOwnerAvatarUrl: row.owner_avatar_url,
    annualRevenue: row.annual_revenue === null ? null : Number(row.annual_revenue),
    employees: row.employees === null ? null : Number(row.employees),
    billingAddress: row.billing_address,
    shippingAddress: row.shipping_address,
    customFieldValues: readJson<CustomFieldValueEntry[]>(row.custom_field_values) ?? [],
    metadata: readJson<Record<string, unknown>>(row.metadata),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
